package safepath

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// Files lists every name below d that is not a directory (files, links,
// FIFOs...), as paths relative to d, in no particular order. It descends
// into no symlink and no mount point, and no deeper than MaxDepth.
func (d *Dir) Files() ([]string, error) {
	var out []string
	err := d.files("", 0, &out)
	return out, err
}

func (d *Dir) files(prefix string, depth int, out *[]string) error {
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
		if !isDir {
			*out = append(*out, rel)
			continue
		}
		if depth+1 >= MaxDepth {
			return pathError("list", d.Join(e.name), fmt.Errorf("%w: more than %d levels", ErrTooDeep, MaxDepth))
		}
		if err := d.descend(e.name, rel, depth+1, out); err != nil {
			return err
		}
	}
	return nil
}

// descend lists the directory name; a mount point, or a name gone or
// replaced since it was listed, is skipped.
func (d *Dir) descend(name, rel string, depth int, out *[]string) error {
	sub, err := d.child(name)
	switch {
	case errors.Is(err, ErrMountPoint), errors.Is(err, unix.ENOENT), errors.Is(err, unix.ELOOP), errors.Is(err, unix.ENOTDIR):
		return nil
	case err != nil:
		return err
	}
	defer sub.Close()
	return sub.files(rel, depth, out)
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
