package kernel

import (
	"errors"
	"fmt"
	"slices"

	"golang.org/x/sys/unix"
)

// watch is one kernel watch (one directory) and the paths naming it.
type watch struct {
	wd int32
	// paths holds what each path naming the watch asked for, most often
	// one: every event read is named once per path, and a map's
	// iteration cost more than the naming. A retired watch keeps the
	// paths it had, to name the events still queued.
	paths []pathMask
	// kernel is the mask the kernel holds for wd: at least the union of
	// the paths' masks, more while a narrowing could not be done.
	kernel uint32
	// retired is set once inotify_rm_watch removed the watch; it is
	// forgotten when its IN_IGNORED is read.
	retired bool
}

// pathMask is what one path naming a watch asked for.
type pathMask struct {
	dir  string
	mask uint32
}

// union is the mask the paths of w need together.
func (w *watch) union() uint32 {
	var m uint32
	for _, p := range w.paths {
		m |= p.mask
	}
	return m
}

// set records what dir asks of w.
func (w *watch) set(dir string, mask uint32) {
	if i := slices.IndexFunc(w.paths, func(p pathMask) bool { return p.dir == dir }); i >= 0 {
		w.paths[i].mask = mask
		return
	}
	w.paths = append(w.paths, pathMask{dir, mask})
}

// watch sets dir's mask on the directory dir names now. Bits are added
// first (IN_MASK_ADD), which never narrows the watch of another path that
// turns out to name the same directory; then, once the watch and every
// path naming it are known, the kernel's mask is narrowed to what they
// need. Callers hold in.mu.
func (in *Instance) watch(dir string, mask uint32) error {
	wd, err := unix.InotifyAddWatch(in.fd, dir, mask|unix.IN_MASK_ADD)
	if err != nil {
		return fmt.Errorf("watching %s: %w", dir, err)
	}
	w, ok := in.byWd[int32(wd)]
	if !ok {
		// Watch descriptors are allocated cyclically, so a new one is
		// never that of a removed watch whose IN_IGNORED is still queued.
		w = &watch{wd: int32(wd)}
		in.byWd[w.wd] = w
	}
	w.kernel |= mask
	w.set(dir, mask)
	old, had := in.byPath[dir]
	in.byPath[dir] = w
	var detached error
	if had && old != w {
		// dir names another directory than when it was watched.
		detached = in.detach(dir, old)
	}
	return errors.Join(detached, in.narrow(dir, w))
}

// detach removes dir from w, removing the kernel watch when no other path
// names it, else narrowing it to what the others need. Callers hold in.mu.
func (in *Instance) detach(dir string, w *watch) error {
	if in.byPath[dir] == w {
		delete(in.byPath, dir)
	}
	if len(w.paths) > 1 {
		w.paths = slices.DeleteFunc(w.paths, func(p pathMask) bool { return p.dir == dir })
		return in.narrow(w.paths[0].dir, w)
	}
	_, err := unix.InotifyRmWatch(in.fd, uint32(w.wd))
	switch {
	case errors.Is(err, unix.EINVAL):
		// The kernel dropped the watch already (the directory was
		// deleted): its IN_IGNORED may have been lost to an overflow, and
		// the events still queued concern a directory nobody watches.
		in.forget(w)
	case err != nil:
		return fmt.Errorf("unwatching %s: %w", dir, err)
	default:
		w.retired = true
	}
	return nil
}

// narrow replaces w's kernel mask, through dir, by the union its paths
// need, when the kernel holds more. Callers hold in.mu.
func (in *Instance) narrow(dir string, w *watch) error {
	want := w.union()
	if w.kernel == want {
		return nil
	}
	wd, err := unix.InotifyAddWatch(in.fd, dir, want)
	if err != nil {
		return fmt.Errorf("narrowing the watch of %s: %w: %w", dir, ErrWider, err)
	}
	if int32(wd) != w.wd {
		return in.undo(dir, int32(wd))
	}
	w.kernel = want
	return nil
}

// undo reverts a narrowing through dir that reached the directory of wd
// instead of the intended one: dir was renamed or replaced in between.
// Callers hold in.mu.
func (in *Instance) undo(dir string, wd int32) error {
	err := fmt.Errorf("narrowing the watch of %s: %w: it names another directory now", dir, ErrWider)
	other, ok := in.byWd[wd]
	if !ok {
		// The narrowing created this watch.
		if _, rmErr := unix.InotifyRmWatch(in.fd, uint32(wd)); rmErr != nil {
			return fmt.Errorf("%w; removing the watch it created: %w", err, rmErr)
		}
		return err
	}
	got, addErr := unix.InotifyAddWatch(in.fd, dir, other.kernel)
	switch {
	case addErr != nil:
		return fmt.Errorf("%w; restoring that directory's watch: %w", err, addErr)
	case int32(got) != wd:
		return fmt.Errorf("%w; restoring that directory's watch: %s changed again", err, dir)
	}
	return err
}

// forget drops a watch whose IN_IGNORED was read. Callers hold in.mu.
func (in *Instance) forget(w *watch) {
	delete(in.byWd, w.wd)
	for _, p := range w.paths {
		if in.byPath[p.dir] == w {
			delete(in.byPath, p.dir)
		}
	}
}
