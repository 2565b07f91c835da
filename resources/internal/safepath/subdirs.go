package safepath

import (
	"errors"
	"strings"
)

// Subdirs opens the directories below a Dir once each, for work on many
// files of one tree: each is reached from the root without following a
// symlink, and its descriptor is reused for every file in it.
type Subdirs struct {
	root *Dir
	open map[string]*Dir
}

// Subdirs returns an empty cache of d's directories; Close releases the
// ones it opened (not d).
func (d *Dir) Subdirs() *Subdirs {
	return &Subdirs{root: d, open: map[string]*Dir{}}
}

// Parent returns the directory holding rel (a relative path below the
// root) and rel's last component.
func (s *Subdirs) Parent(rel string) (*Dir, string, error) {
	i := strings.LastIndexByte(rel, '/')
	if i < 0 {
		return s.root, rel, nil
	}
	dir, base := rel[:i], rel[i+1:]
	if d, ok := s.open[dir]; ok {
		return d, base, nil
	}
	d, err := s.root.OpenDir(dir)
	if err != nil {
		return nil, base, err
	}
	s.open[dir] = d
	return d, base, nil
}

// Close releases every directory Parent opened.
func (s *Subdirs) Close() error {
	var errs []error
	for _, d := range s.open {
		errs = append(errs, d.Close())
	}
	clear(s.open)
	return errors.Join(errs...)
}
