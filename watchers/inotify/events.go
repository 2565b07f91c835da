package inotify

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	"github.com/fsnotify/fsnotify"
)

// read routes events until ctx is cancelled, then closes the instance.
// Errors are drained in the same loop: fsnotify stops reading events
// while an error waits to be read.
func (h *Hub) read(ctx context.Context) {
	defer h.close()
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-h.w.Events:
			if !ok {
				return
			}
			call(h.route(ev))
		case err, ok := <-h.w.Errors:
			if !ok {
				return
			}
			call(h.failure(err))
		}
	}
}

func (h *Hub) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.w.Close(); err != nil {
		h.log.Warn("inotify: closing", "error", err)
	}
}

// route returns the notify functions an event concerns, re-arming the
// registrations whose directories appeared or went away.
func (h *Hub) route(ev fsnotify.Event) []func() {
	h.mu.Lock()
	defer h.mu.Unlock()
	name := ev.Name
	var fns []func()
	if t, ok := h.paths[name]; ok {
		fns = t.notifies(fns)
	}
	_, watched := h.dirs[name]
	// Trees go first: a removed or renamed directory must lose every
	// reference before targets re-arm, or a stale watch would survive.
	for _, tr := range h.trees {
		if isUnder(name, tr.root) {
			fns = h.treeEvent(tr, ev, fns)
		}
	}
	switch {
	case ev.Has(fsnotify.Create):
		// A directory on the way to waiting targets appeared; it may
		// already hold them (mkdir -p, or a tree moved into place).
		if set, ok := h.waiting[name]; ok {
			fns = h.rearm(keys(set), fns)
		}
	case ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename):
		if watched {
			fns = h.rearm(h.headsUnder(name), fns)
		}
	}
	return fns
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
// inode instead of keeping a stale one.
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

// failure handles an error from the instance. An overflow lost events, so
// every registration is re-armed and notified.
func (h *Hub) failure(err error) []func() {
	if !errors.Is(err, fsnotify.ErrEventOverflow) {
		h.log.Warn("inotify error", "error", err)
		return nil
	}
	h.log.Warn("inotify queue overflowed; re-checking every watched path")
	h.mu.Lock()
	defer h.mu.Unlock()
	all := make([]*target, 0, len(h.paths))
	for _, t := range h.paths {
		all = append(all, t)
	}
	fns := h.rearm(all, nil)
	for _, tr := range h.trees {
		h.walk(tr, tr.root)
		fns = tr.notifies(fns)
	}
	return fns
}

// existingAncestor returns dir if it is an existing directory, else its
// nearest existing ancestor.
func existingAncestor(dir string) string {
	for {
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return dir
		}
		dir = parent
	}
}
