package safepath

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// WalkFunc is called by Walk for each name: in is the open directory that
// holds it (for Stat, Open, Unlink), rel its path relative to where the
// walk began.
type WalkFunc func(in *Dir, name, rel string, isDir bool) error

// Walk calls fn for every name below d, a directory before what it holds,
// in no particular order otherwise. It descends into no symlink (a link is
// reported as the name it is) and no mount point, and no deeper than
// MaxDepth; a directory removed or replaced while walking is skipped.
func (d *Dir) Walk(fn WalkFunc) error {
	return d.walk("", 0, fn)
}

func (d *Dir) walk(prefix string, depth int, fn WalkFunc) error {
	ents, err := d.entries()
	if err != nil {
		return err
	}
	for _, e := range ents {
		rel := e.name
		if prefix != "" {
			rel = prefix + "/" + e.name
		}
		isDir, err := d.isDir(e)
		if err != nil {
			return err
		}
		if err := fn(d, e.name, rel, isDir); err != nil || !isDir {
			if err != nil {
				return err
			}
			continue
		}
		if depth+1 >= MaxDepth {
			return pathError("walk", d.Join(e.name), fmt.Errorf("%w: more than %d levels", ErrTooDeep, MaxDepth))
		}
		if err := d.descend(e.name, rel, depth+1, fn); err != nil {
			return err
		}
	}
	return nil
}

// descend walks the directory name; a mount point, or a name gone or
// replaced since it was listed, is skipped.
func (d *Dir) descend(name, rel string, depth int, fn WalkFunc) error {
	sub, err := d.child(name)
	switch {
	case errors.Is(err, ErrMountPoint), errors.Is(err, unix.ENOENT), errors.Is(err, unix.ELOOP), errors.Is(err, unix.ENOTDIR):
		return nil
	case err != nil:
		return err
	}
	defer sub.Close()
	return sub.walk(rel, depth, fn)
}

// isDir reports whether e is a directory, asking the filesystem when the
// listing did not say.
func (d *Dir) isDir(e entry) (bool, error) {
	if e.typ != unix.DT_UNKNOWN {
		return e.typ == unix.DT_DIR, nil
	}
	st, err := d.Stat(e.name)
	if errors.Is(err, unix.ENOENT) {
		return false, nil
	}
	return st.Mode&unix.S_IFMT == unix.S_IFDIR, err
}
