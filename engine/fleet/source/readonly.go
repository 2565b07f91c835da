package source

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"

	"github.com/reactive-ccm/ccm/engine/daemon/state"
)

// openReadOnlyCache opens the cache of a read-only set: revisions fetched
// go to the set's temporary directory, and those cached earlier are read
// from the state directory's copy, which is neither created nor written.
func openReadOnlyCache(o *Options, name string) (cache, error) {
	tmp, err := o.scratch()
	if err != nil {
		return cache{}, err
	}
	d, err := madeSub(tmp, name)
	if err != nil {
		return cache{}, err
	}
	c := cache{d: d}
	root, err := o.Cache()
	if err == nil {
		c.from, err = root.Sub(name)
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return cache{}, err
	}
	return c, nil
}

// scratch is a read-only set's private temporary directory, made on first
// use and removed by Set.Close.
type scratch struct {
	mu  sync.Mutex
	dir *state.Dir
}

func (s *scratch) open() (*state.Dir, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dir != nil {
		return s.dir, nil
	}
	path, err := os.MkdirTemp("", "ccm-noop-")
	if err != nil {
		return nil, fmt.Errorf("source: a temporary directory for what a noop run fetches: %w", err)
	}
	if s.dir, err = state.Open(path); err != nil {
		return nil, errors.Join(err, os.RemoveAll(path))
	}
	return s.dir, nil
}

func (s *scratch) remove() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dir == nil {
		return nil
	}
	err := errors.Join(s.dir.Close(), os.RemoveAll(s.dir.Path()))
	s.dir = nil
	return err
}
