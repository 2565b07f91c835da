package inotify

import (
	"errors"

	"golang.org/x/sys/unix"

	"github.com/reactive-ccm/ccm/watchers/inotify/internal/kernel"
)

// read routes events until the instance is closed.
func (h *Hub) read() {
	if err := h.in.Read(h.handle); !errors.Is(err, kernel.ErrClosed) {
		h.log.Error("inotify: no more events; changes are seen only by the periodic re-check", "error", err)
	}
}

// Flush routes every event the kernel queued before the call, and
// returns once their notify functions have been called: a check that
// starts after Flush sees every change those events were about, so it
// may forget that they asked for one (ccm's own write, above all).
func (h *Hub) Flush() {
	if err := h.in.Drain(h.handle); err != nil && !errors.Is(err, kernel.ErrClosed) {
		h.log.Warn("inotify: reading queued events", "error", err)
	}
}

func (h *Hub) close() {
	if err := h.in.Close(); err != nil {
		h.log.Warn("inotify: closing", "error", err)
	}
}

// handle routes the events of one read and calls the notify functions
// they concern. It is the kernel.Handler of every read: the events' names
// are gone when it returns.
func (h *Hub) handle(evs []kernel.Event) { call(h.routeAll(evs)) }

// routeAll returns the notify functions a batch of events concerns.
func (h *Hub) routeAll(evs []kernel.Event) []func() {
	h.mu.Lock()
	defer h.mu.Unlock()
	var fns []func()
	for _, ev := range evs {
		fns = h.route(ev, fns)
	}
	return fns
}

// route adds the notify functions an event concerns, re-arming the
// registrations whose directories appeared or went away. Callers hold
// h.mu.
func (h *Hub) route(ev kernel.Event, fns []func()) []func() {
	if ev.Has(unix.IN_Q_OVERFLOW) {
		return h.overflow(fns)
	}
	if !h.concerns(ev) {
		return fns
	}
	name := ev.Path()
	t, isTarget := h.paths[name]
	if isTarget {
		fns = t.notifies(fns)
	}
	_, watched := h.dirs[name]
	// Trees go first: a removed or renamed directory must lose every
	// reference before targets re-arm, or a stale watch would survive.
	for _, tr := range h.trees {
		if isUnder(name, tr.root) {
			fns = h.treeEvent(tr, name, ev, fns)
		}
	}
	if watched && ev.Has(created|gone) {
		// A watched directory went away, or something took its name (a
		// symlink re-pointed by renaming a new one over it).
		fns = h.rearm(h.headsUnder(name), fns)
	}
	if set, ok := h.waiting[name]; ok && ev.Has(created) {
		// A directory on the way to waiting targets appeared; it may
		// already hold them (mkdir -p, or a tree moved into place). It
		// may be watched already too, for targets armed after it
		// appeared and before this event was read: the waiting ones
		// still watch only the directory above.
		fns = h.rearm(keys(set), fns)
	}
	if isTarget && ev.Has(created) && t.polled == nil && t.shape != shapeFor(ev.Mask) {
		// A directory appeared where a file was watched or the other way
		// round: what its parent must be watched for changed.
		fns = h.rearm([]*target{t}, fns)
	}
	return fns
}

// concerns reports whether ev may concern a registration: its path is
// registered, watched, waited for or in a tree, or it is about a watched
// directory itself. The path is looked up in h.key, without allocating:
// the entries of a busy directory that nobody registered (a neighbour
// making and removing files beside managed ones) cost no garbage.
// Callers hold h.mu.
func (h *Hub) concerns(ev kernel.Event) bool {
	if len(ev.Name) == 0 {
		return true
	}
	h.key = append(h.key[:0], ev.Dir...)
	if ev.Dir != "/" {
		h.key = append(h.key, '/')
	}
	h.key = append(h.key, ev.Name...)
	_, target := h.paths[string(h.key)]
	_, watched := h.dirs[string(h.key)]
	_, waited := h.waiting[string(h.key)]
	if target || watched || waited {
		return true
	}
	for root := range h.trees {
		if isUnder(ev.Dir, root) || string(h.key) == root {
			return true
		}
	}
	return false
}

// headsUnder lists the targets whose watched chain passes through dir.
func (h *Hub) headsUnder(dir string) []*target {
	var out []*target
	for head, set := range h.byHead {
		if isUnder(head, dir) {
			out = append(out, keys(set)...)
		}
	}
	return out
}

func keys(set map[*target]struct{}) []*target {
	out := make([]*target, 0, len(set))
	for t := range set {
		out = append(out, t)
	}
	return out
}

// rearm re-watches targets from scratch and notifies them. Every chain is
// released before any is re-acquired, so a directory removed or renamed
// and already back under the same name gets a fresh watch on the new
// inode instead of keeping a stale one. Callers hold h.mu.
func (h *Hub) rearm(ts []*target, fns []func()) []func() {
	for _, t := range ts {
		h.unindex(t)
		h.release(t.chain)
		t.chain = nil
	}
	for _, t := range ts {
		h.arm(t)
		fns = t.notifies(fns)
	}
	return fns
}

// overflow handles a queue overflow: events were lost, so every
// registration is re-armed and notified. Callers hold h.mu.
func (h *Hub) overflow(fns []func()) []func() {
	h.overflows++
	h.log.Warn("inotify queue overflowed; re-checking every watched path")
	all := make([]*target, 0, len(h.paths))
	for _, t := range h.paths {
		all = append(all, t)
	}
	fns = h.rearm(all, fns)
	for _, tr := range h.trees {
		h.walk(tr, tr.root)
		fns = tr.notifies(fns)
	}
	return fns
}
