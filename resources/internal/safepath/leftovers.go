package safepath

import (
	"errors"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// listing is the temporary names one directory held the first time this
// process looked, not yet removed. A killed process leaves its temporary
// files behind; this process's own writers clean up after themselves, so
// one look per directory per process finds every leftover, and a check
// that runs thousands of times never lists a large directory again.
type listing struct {
	once sync.Once
	// done is set once the directory was listed.
	done  atomic.Bool
	mu    sync.Mutex
	names []string
}

// listings maps a directory's path to its listing.
var listings sync.Map

// RemoveLeftovers removes the temporary files of CreateTemp for base that
// a killed process left in d. A file still locked by its writer (another
// ccm writing right now) is left alone. A directory that cannot be listed
// has no known leftovers: cleaning up is never a reason to fail.
func (d *Dir) RemoveLeftovers(base string) error {
	v, ok := listings.Load(d.path)
	if !ok {
		v, _ = listings.LoadOrStore(d.path, &listing{})
	}
	l := v.(*listing)
	l.once.Do(func() {
		l.names = d.tempNames()
		l.done.Store(true)
	})
	names := l.take(tempPrefix(base))
	var errs []error
	for _, name := range names {
		errs = append(errs, d.removeLeftover(name))
	}
	return errors.Join(errs...)
}

// RemoveLeftovers is Dir.RemoveLeftovers for the temporary files of
// path, opening path's directory only when it was never listed or when
// its listing found temporary files: a check of an unchanged file makes
// no system call for it.
func (p Policy) RemoveLeftovers(path string) error {
	if v, ok := listings.Load(parentOf(path)); ok && v.(*listing).clean() {
		return nil
	}
	d, base, err := p.OpenParent(path)
	if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
		return nil
	}
	if err != nil {
		return err
	}
	return errors.Join(d.RemoveLeftovers(base), d.Close())
}

// clean reports whether the directory was listed and has no temporary
// file left to remove.
func (l *listing) clean() bool {
	if !l.done.Load() {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.names) == 0
}

// tempNames lists the names in d that CreateTemp may have made.
func (d *Dir) tempNames() []string {
	ents, err := d.entries()
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if isTempName(e.name) {
			out = append(out, e.name)
		}
	}
	return out
}

// isTempName reports whether name looks like .BASE.ccm-DIGITS.
func isTempName(name string) bool {
	i := strings.LastIndex(name, ".ccm-")
	if !strings.HasPrefix(name, ".") || i < 1 || i+5 == len(name) {
		return false
	}
	for _, c := range name[i+5:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// take removes and returns the names that begin with prefix and end in
// digits only.
func (l *listing) take(prefix string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	kept := l.names[:0]
	for _, n := range l.names {
		if strings.HasPrefix(n, prefix) && !strings.Contains(n[len(prefix):], ".") {
			out = append(out, n)
		} else {
			kept = append(kept, n)
		}
	}
	l.names = kept
	return out
}

// removeLeftover removes name if it is a regular file no one holds the
// lock of.
func (d *Dir) removeLeftover(name string) error {
	f, err := d.Open(name, unix.O_RDONLY|unix.O_NONBLOCK)
	if errors.Is(err, unix.ENOENT) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return err
	}
	if err := unix.Flock(f.fd, unix.LOCK_EX|unix.LOCK_NB); err != nil {
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil
		}
		return pathError("flock", f.name, err)
	}
	err = d.Unlink(name)
	if errors.Is(err, unix.ENOENT) {
		return nil
	}
	return err
}
