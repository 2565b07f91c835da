package sandbox

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// tmpfsCopy mounts a tmpfs over dir holding a copy of what dir held:
// the original is bound to a staging directory first, to be read once
// the tmpfs hides it.
func tmpfsCopy(dir string) error {
	var st unix.Stat_t
	if err := unix.Stat(dir, &st); err != nil {
		return err
	}
	stage, err := os.MkdirTemp("", "ccm-sandbox-")
	if err != nil {
		return err
	}
	defer os.Remove(stage)
	if err := unix.Mount(dir, stage, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return err
	}
	defer unix.Unmount(stage, unix.MNT_DETACH)
	opts := "mode=" + strconv.FormatUint(uint64(st.Mode&0o7777), 8)
	if err := unix.Mount("ccm-sandbox", dir, "tmpfs", 0, opts); err != nil {
		return err
	}
	if err := os.Lchown(dir, int(st.Uid), int(st.Gid)); err != nil {
		return err
	}
	return copyTree(stage, dir)
}

// copyTree copies the directories, regular files and symlinks below src
// into dst with their owners and modes; other files are left out.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || path == src {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		st := info.Sys().(*syscall.Stat_t)
		switch {
		case d.IsDir():
			err = os.Mkdir(to, 0o700)
		case d.Type()&fs.ModeSymlink != 0:
			err = copyLink(path, to)
		case d.Type().IsRegular():
			err = copyFile(path, to)
		default:
			return nil
		}
		if err != nil {
			return err
		}
		if err := os.Lchown(to, int(st.Uid), int(st.Gid)); err != nil {
			return err
		}
		if d.Type()&fs.ModeSymlink != 0 {
			return nil
		}
		return unix.Chmod(to, st.Mode&0o7777)
	})
}

func copyLink(from, to string) error {
	target, err := os.Readlink(from)
	if err != nil {
		return err
	}
	return os.Symlink(target, to)
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	return errors.Join(err, out.Close())
}
