package inotify

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"slices"
	"sync"
	"syscall"

	"github.com/reactive-ccm/ccm/watchers/inotify/internal/kernel"
)

// Fallback registers a path with a polling source when inotify cannot
// watch it; it returns the cancel function of that registration.
type Fallback func(path string, notify func()) (cancel func())

// Hub routes inotify events to registrations. Its methods are safe for
// concurrent use. Notify functions are called without the hub's lock held,
// from the hub's reader goroutine, and must not block.
type Hub struct {
	log      *slog.Logger
	fallback Fallback

	in *kernel.Instance

	mu sync.Mutex
	// paths holds the registrations per cleaned absolute path.
	paths map[string]*target
	// trees holds the recursive registrations per root.
	trees map[string]*tree
	// dirs counts, per watched directory, the targets and trees using it
	// and what they need from it; a directory is watched exactly while it
	// has users, with the mask of their highest need.
	dirs map[string]*use
	// byHead indexes targets by the deepest directory of their chain, to
	// find the targets a removed or renamed directory concerns.
	byHead map[string]map[*target]struct{}
	// waiting indexes targets by the missing directory they wait for, to
	// find the targets a created directory concerns.
	waiting map[string]map[*target]struct{}
	// degraded is set once the kernel refused a watch, so the warning is
	// logged once.
	degraded bool
	// overflows counts the kernel queue's overflows.
	overflows uint64
	// key is where concerns spells an event's path to look it up.
	key []byte
}

// target is one watched path and everyone interested in it.
type target struct {
	path string
	// subs are its registrations, most often one: a slice costs a
	// tenth of a map's memory for it, which counts at thousands of paths.
	subs []*sub
	// chain is the directories watched for it: its head first (the path
	// itself when it is a directory, else its deepest existing
	// ancestor), then every directory above.
	chain []link
	// shape is how chain was planned, after what the path was then.
	shape shape
	// dir records that the path was a directory when last seen existing,
	// so a missing directory waits for its entry only.
	dir bool
	// polled cancels the fallback registration once inotify refused the
	// path; such a target stays polled.
	polled func()
}

// sub is one registration: notify on events, polled on the polls of a
// path inotify refused.
type sub struct{ notify, polled func() }

// New opens the inotify instance and reads events until ctx is
// cancelled. If inotify is unavailable the error says why; callers then
// poll instead.
func New(ctx context.Context, log *slog.Logger, fallback Fallback) (*Hub, error) {
	in, err := kernel.Open()
	if err != nil {
		return nil, err
	}
	h := &Hub{
		log: log, fallback: fallback, in: in,
		paths: map[string]*target{}, trees: map[string]*tree{}, dirs: map[string]*use{},
		byHead: map[string]map[*target]struct{}{}, waiting: map[string]map[*target]struct{}{},
	}
	context.AfterFunc(ctx, h.close)
	go h.read()
	return h, nil
}

// Watch calls notify whenever path may have changed: created, written,
// chmodded, chowned, removed or replaced, or any directory above it
// created, removed or renamed. The watch is armed when Watch returns.
func (h *Hub) Watch(path string, notify func()) (cancel func()) {
	return h.WatchPolled(path, notify, notify)
}

// WatchPolled is Watch, calling polled instead of notify on each poll
// once inotify refused the path and it fell back to polling, so callers
// can tell a poll from an event.
func (h *Hub) WatchPolled(path string, notify, polled func()) (cancel func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	cancelLocked := h.watchLocked(absolute(path), &sub{notify: notify, polled: polled})
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		cancelLocked()
	}
}

// watchLocked registers notify for path and returns a cancel function
// that must also be called with h.mu held.
func (h *Hub) watchLocked(path string, s *sub) (cancelLocked func()) {
	t, ok := h.paths[path]
	if !ok {
		t = &target{path: path}
		h.paths[path] = t
		h.arm(t)
	}
	t.subs = append(t.subs, s)
	return func() {
		t.subs = slices.DeleteFunc(t.subs, func(o *sub) bool { return o == s })
		if len(t.subs) == 0 && h.paths[path] == t {
			delete(h.paths, path)
			h.disarm(t)
		}
	}
}

// arm (re)computes and watches t's chain. Callers hold h.mu.
func (h *Hub) arm(t *target) {
	if t.polled != nil {
		return
	}
	for {
		p := planOf(t.path, t.dir)
		chain, err := h.acquire(p.dirs, p.first...)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			// The directory went away or was replaced while we looked;
			// look again.
			continue
		}
		if errors.Is(err, kernel.ErrClosed) {
			// Shutting down: routing the last events raced the close.
			// Nothing is watched any more, by inotify or by polling.
			h.disarm(t)
			return
		}
		if err != nil {
			h.disarm(t)
			h.degrade(t, err)
			return
		}
		h.unindex(t)
		h.release(t.chain)
		t.chain, t.shape = chain, p.shape
		t.dir = p.dir(t.dir)
		h.index(t)
		// A directory created between looking and watching sent no event
		// to the new watch; look again until what was planned holds.
		if p.holds(t.path) {
			return
		}
	}
}

// disarm drops t's watches and fallback. Callers hold h.mu.
func (h *Hub) disarm(t *target) {
	h.unindex(t)
	h.release(t.chain)
	t.chain = nil
	if t.polled != nil {
		t.polled()
		t.polled = nil
	}
}

func (h *Hub) index(t *target) {
	head := t.chain[0].dir
	addTo(h.byHead, head, t)
	if next := nextBelow(head, t.path); head != t.path && next != t.path {
		addTo(h.waiting, next, t)
	}
}

func (h *Hub) unindex(t *target) {
	if len(t.chain) == 0 {
		return
	}
	head := t.chain[0].dir
	removeFrom(h.byHead, head, t)
	if next := nextBelow(head, t.path); head != t.path && next != t.path {
		removeFrom(h.waiting, next, t)
	}
}

func addTo(m map[string]map[*target]struct{}, k string, t *target) {
	set, ok := m[k]
	if !ok {
		set = map[*target]struct{}{}
		m[k] = set
	}
	set[t] = struct{}{}
}

func removeFrom(m map[string]map[*target]struct{}, k string, t *target) {
	delete(m[k], t)
	if len(m[k]) == 0 {
		delete(m, k)
	}
}

// degrade moves t to the polling fallback after inotify refused it.
func (h *Hub) degrade(t *target, err error) {
	switch {
	case !refused(err):
		h.log.Warn("cannot watch path with inotify; polling it", "path", t.path, "error", err)
	case !h.degraded:
		h.degraded = true
		h.log.Warn("the kernel refused an inotify watch; polling this path and any other it refuses",
			"path", t.path, "error", err, "hint", "raise fs.inotify.max_user_watches")
	}
	path := t.path
	t.polled = h.fallback(path, func() { call(h.pollsOf(path)) })
}

// refused reports errors that mean the kernel will not give more watches.
func refused(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EMFILE) ||
		errors.Is(err, syscall.ENFILE) || errors.Is(err, syscall.ENOSYS) || errors.Is(err, syscall.ENOMEM)
}

// pollsOf returns the functions to call when path, which inotify refused,
// is polled.
func (h *Hub) pollsOf(path string) []func() {
	h.mu.Lock()
	defer h.mu.Unlock()
	var fns []func()
	if t, ok := h.paths[path]; ok {
		for _, s := range t.subs {
			fns = append(fns, s.polled)
		}
	}
	return fns
}

func (t *target) notifies(fns []func()) []func() {
	for _, s := range t.subs {
		fns = append(fns, s.notify)
	}
	return fns
}

func call(fns []func()) {
	for _, fn := range fns {
		fn()
	}
}

// Stats describes the hub's use of the kernel, for tests and status.
type Stats struct {
	Paths, Trees, Dirs, Polled int
	// Events counts the events read from the kernel; while it stays the
	// same, the hub's reader has not woken.
	Events uint64
	// Overflows counts the queue overflows, each a re-check of everything.
	Overflows uint64
}

// Stats returns how many paths, trees and directories are watched, how
// many paths fell back to polling, how many events were read and how
// often the queue overflowed.
func (h *Hub) Stats() Stats {
	h.mu.Lock()
	defer h.mu.Unlock()
	st := Stats{Paths: len(h.paths), Trees: len(h.trees), Dirs: len(h.dirs), Events: h.in.Events(), Overflows: h.overflows}
	for _, t := range h.paths {
		if t.polled != nil {
			st.Polled++
		}
	}
	return st
}
