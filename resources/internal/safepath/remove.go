package safepath

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// MaxDepth bounds how deep RemoveAll and Walk go, so a hostile tree
// cannot exhaust descriptors: each level holds one open directory.
const MaxDepth = 256

// RemoveAll removes name and, when it is a directory, everything below it,
// with unlinkat from the descriptor of each directory. A symlink is
// removed, never followed; a mount point is left in place with its
// content and reported with ErrMountPoint. It goes on after an error and
// returns them all; a name already gone is no error.
func (d *Dir) RemoveAll(name string) error {
	if err := single(name); err != nil {
		return pathError("remove", d.Join(name), err)
	}
	return d.removeAll(name, 0)
}

func (d *Dir) removeAll(name string, depth int) error {
	err := unix.Unlinkat(d.fd, name, 0)
	if err == nil || errors.Is(err, unix.ENOENT) {
		return nil
	}
	if !errors.Is(err, unix.EISDIR) {
		return pathError("unlink", d.Join(name), err)
	}
	if depth >= MaxDepth {
		return pathError("remove", d.Join(name), fmt.Errorf("%w: more than %d levels", ErrTooDeep, MaxDepth))
	}
	sub, err := d.child(name)
	switch {
	case errors.Is(err, unix.ENOENT):
		return nil
	case errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR):
		// Replaced by a link or a file since the unlink: remove that.
		return d.removeAll(name, depth)
	case err != nil:
		return err
	}
	errs := []error{sub.removeEntries(depth + 1)}
	errs = append(errs, sub.Close())
	if err := unix.Unlinkat(d.fd, name, unix.AT_REMOVEDIR); err != nil && !errors.Is(err, unix.ENOENT) {
		errs = append(errs, pathError("rmdir", d.Join(name), err))
	}
	return errors.Join(errs...)
}

func (d *Dir) removeEntries(depth int) error {
	ents, err := d.entries()
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range ents {
		errs = append(errs, d.removeAll(e.name, depth))
	}
	return errors.Join(errs...)
}

// child opens the directory name in d without following a symlink or
// crossing into another mount: ErrMountPoint when name is one.
func (d *Dir) child(name string) (*Dir, error) {
	path := d.Join(name)
	if haveOpenat2() {
		how := unix.OpenHow{Flags: dirFlags | unix.O_NOFOLLOW, Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_XDEV}
		fd, err := unix.Openat2(d.fd, name, &how)
		if errors.Is(err, unix.EXDEV) {
			return nil, pathError("open", path, ErrMountPoint)
		}
		if err != nil {
			return nil, pathError("open", path, err)
		}
		return &Dir{fd: fd, path: path}, nil
	}
	// Without openat2 a mount point shows as another device; a bind mount
	// of the same filesystem does not.
	fd, err := unix.Openat(d.fd, name, dirFlags|unix.O_NOFOLLOW, 0)
	if err != nil {
		return nil, pathError("open", path, err)
	}
	sub := &Dir{fd: fd, path: path}
	a, err1 := d.Self()
	b, err2 := sub.Self()
	if err := errors.Join(err1, err2); err != nil || a.Dev != b.Dev {
		if err == nil {
			err = pathError("open", path, ErrMountPoint)
		}
		return nil, errors.Join(err, sub.Close())
	}
	return sub, nil
}
