package file

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// maxTempBase bounds the part of a temporary name taken from the target's
// name, so the temporary name stays under NAME_MAX.
const maxTempBase = 200

// writeAtomic replaces path with the content of r: a temporary file in the
// same directory gets its owner and mode before any content lands, is
// synced, then renamed over path. Readers see the old file or the new one,
// never a partial or wrongly permitted one. The parent must exist.
func writeAtomic(path string, r io.Reader, uid, gid int, mode Mode) (err error) {
	dir := filepath.Dir(path)
	if err := requireDir(dir); err != nil {
		return err
	}
	base := filepath.Base(path)
	if len(base) > maxTempBase {
		base = base[:maxTempBase]
	}
	tmp, err := os.CreateTemp(dir, "."+base+".ccm-*")
	if err != nil {
		return fmt.Errorf("creating a temporary file for %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, ignoreMissing(os.Remove(tmp.Name())))
		}
	}()
	if err := fill(tmp, r, uid, gid, mode); err != nil {
		return fmt.Errorf("writing %s: %w", tmp.Name(), errors.Join(err, tmp.Close()))
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", tmp.Name(), err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("replacing %s: %w", path, err)
	}
	return nil
}

// fill sets owner and mode on the open temporary file, then writes and
// syncs the content. Chown comes first because it may clear mode bits.
func fill(tmp *os.File, r io.Reader, uid, gid int, mode Mode) error {
	if err := tmp.Chown(uid, gid); err != nil {
		return chownHint(err)
	}
	if err := tmp.Chmod(fs.FileMode(mode)); err != nil {
		return err
	}
	if _, err := io.Copy(tmp, r); err != nil {
		return err
	}
	return tmp.Sync()
}

func requireDir(dir string) error {
	st, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: %s; create it first, for example with a file resource with ensure: directory", ErrNoParent, dir)
	}
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("%w: %s is not a directory", ErrNoParent, dir)
	}
	return nil
}

// makeDir creates the directory and any missing parents, as upstream does.
// Whatever non-directory stands at the path (a file, a symlink) is removed
// first. The directory is created private and only then given its owner
// and mode, so it is never briefly open to others.
func makeDir(path string, replace bool, uid, gid int, mode Mode) error {
	if replace {
		if err := os.Remove(path); err != nil {
			return fmt.Errorf("removing %s to make a directory: %w", path, err)
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("creating parents of %s: %w", path, err)
	}
	if err := os.Mkdir(path, 0o700); err != nil {
		return fmt.Errorf("creating %s: %w", path, err)
	}
	if err := setAttrs(path, uid, gid, mode); err != nil {
		// Leave nothing behind: a private, empty directory is neither
		// what was asked nor what was there.
		return errors.Join(err, os.Remove(path))
	}
	return nil
}

// setAttrs fixes owner, group and mode in place: the inode, content and
// modification time stay. Chown does not follow a symlink; chmod follows,
// but the caller has seen that path is not one.
func setAttrs(path string, uid, gid int, mode Mode) error {
	if err := os.Lchown(path, uid, gid); err != nil {
		return chownHint(err)
	}
	return os.Chmod(path, fs.FileMode(mode))
}

// remove deletes the path; a non-empty directory only with force.
func remove(path string, isDir, force bool) error {
	if isDir && force {
		return os.RemoveAll(path)
	}
	err := os.Remove(path)
	if errors.Is(err, syscall.ENOTEMPTY) || errors.Is(err, syscall.EEXIST) {
		return fmt.Errorf("%s %w; set force: true to remove it with its contents", path, ErrNotEmpty)
	}
	return ignoreMissing(err)
}

func ignoreMissing(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}
