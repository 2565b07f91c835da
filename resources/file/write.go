package file

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/reactive-ccm/ccm/resources/commit"
	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	"golang.org/x/sys/unix"
)

// writeAtomic replaces base in dir with the content of r: a temporary
// file beside it, created by root no more open than mode, gets its content,
// then the owner and mode it lacks, is made durable (with the commit group
// in ctx, if any), then renamed over base. Readers see the old file or the
// new one, never a partial or wrongly permitted one, and neither does a
// crash. check, when set, reads the complete temporary file through a
// descriptor of it before the rename; its error leaves base as it was.
// It returns the stamp of the file written, for the look after the write.
func writeAtomic(ctx context.Context, dir *safepath.Dir, base string, r io.Reader, uid, gid int, mode Mode, check func(*os.File) error) (stamped, error) {
	tmp, st, err := dir.WriteTemp(base, safepath.CreatePerm(uint32(mode)), r)
	if err != nil {
		return stamped{}, fmt.Errorf("writing a temporary file for %s: %w", dir.Join(base), err)
	}
	err = chownHint(tmp.SetAttrs(&st, uid, gid, uint32(mode)))
	if err == nil {
		err = commit.Sync(ctx, tmp)
	}
	if err != nil {
		return stamped{}, fmt.Errorf("writing %s: %w", tmp.Name(), errors.Join(err, tmp.Abort()))
	}
	if check != nil {
		if err := checkTemp(tmp, check); err != nil {
			return stamped{}, errors.Join(err, tmp.Abort())
		}
	}
	stamp, ok, err := tmp.CommitStamped(&st)
	if err != nil {
		return stamped{}, fmt.Errorf("replacing %s: %w", dir.Join(base), err)
	}
	return stamped{stamp: stamp, ok: ok}, nil
}

// stamped is the stamp of a file just written, valid when ok.
type stamped struct {
	stamp safepath.Stamp
	ok    bool
}

// checkTemp hands check a read-only descriptor of tmp.
func checkTemp(tmp *safepath.Temp, check func(*os.File) error) error {
	f, err := tmp.Reopen()
	if err != nil {
		return err
	}
	defer f.Close()
	return check(f)
}

var _ commit.Durable = (*safepath.Temp)(nil)

// noParent explains a missing parent directory.
func noParent(path string, why error) error {
	dir := filepath.Dir(path)
	if errors.Is(why, unix.ENOTDIR) {
		return fmt.Errorf("%w: %s is not a directory", ErrNoParent, dir)
	}
	return fmt.Errorf("%w: %s; create it first, for example with a file resource with ensure: directory", ErrNoParent, dir)
}

// makeDir creates the directory and any missing parents (0755), as
// upstream does. Whatever non-directory stands at the path (a file, a
// symlink) is removed first. The directory is created private and only
// then given its owner and mode, so it is never briefly open to others.
func (f *file) makeDir(v *view, uid, gid int, mode Mode) error {
	dir := v.dir
	if dir == nil {
		var err error
		if dir, err = f.links.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
			return fmt.Errorf("creating parents of %s: %w", f.path, err)
		}
		v.dir = dir
	} else if v.o.kind != Absent {
		if err := dir.Unlink(v.base); err != nil {
			return fmt.Errorf("removing %s to make a directory: %w", f.path, err)
		}
	}
	if err := dir.Mkdir(v.base, 0o700); err != nil {
		return err
	}
	if err := dir.SetAttrs(v.base, uid, gid, uint32(mode)); err != nil {
		// Leave nothing behind: a private, empty directory is neither
		// what was asked nor what was there.
		return errors.Join(chownHint(err), dir.Rmdir(v.base))
	}
	return nil
}

// remove deletes the path; a non-empty directory only with force. A
// symlink is removed itself; force never follows one nor crosses a mount.
func remove(v *view, force bool) error {
	switch {
	case v.dir == nil || v.o.kind == Absent:
		return nil
	case v.o.kind != Directory:
		return ignoreMissing(v.dir.Unlink(v.base))
	case force:
		return v.dir.RemoveAll(v.base)
	}
	err := v.dir.Rmdir(v.base)
	if errors.Is(err, unix.ENOTEMPTY) || errors.Is(err, unix.EEXIST) {
		return fmt.Errorf("%s %w; set force: true to remove it with its contents", v.dir.Join(v.base), ErrNotEmpty)
	}
	return ignoreMissing(err)
}

func ignoreMissing(err error) error {
	if errors.Is(err, unix.ENOENT) {
		return nil
	}
	return err
}
