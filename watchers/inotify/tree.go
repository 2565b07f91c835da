package inotify

import (
	"io/fs"
	"path/filepath"

	"github.com/reactive-ccm/ccm/watchers/inotify/internal/kernel"
)

// tree is a recursive registration: every directory below root is
// watched, and any event inside notifies.
type tree struct {
	root string
	subs map[*sub]struct{}
	// dirs are the tree's watched directories; each holds one use of
	// need needAll in Hub.dirs.
	dirs map[string]struct{}
	// anchor cancels (with h.mu held) the registration of root itself,
	// which follows the root's creation, removal and renames like any path.
	anchor func()
}

// WatchTree calls notify whenever anything inside root (at any depth), or
// root itself, may have changed. The watches are armed when it returns.
func (h *Hub) WatchTree(root string, notify func()) (cancel func()) {
	root = absolute(root)
	s := &sub{notify: notify}
	h.mu.Lock()
	defer h.mu.Unlock()
	tr, ok := h.trees[root]
	if !ok {
		tr = &tree{root: root, subs: map[*sub]struct{}{}, dirs: map[string]struct{}{}}
		h.trees[root] = tr
		// The root's own events (created, removed, renamed) come through
		// a path registration; a root that appears is walked.
		rescan := func() { h.rescan(root) }
		tr.anchor = h.watchLocked(root, &sub{notify: rescan, polled: rescan})
		h.walk(tr, root)
	}
	tr.subs[s] = struct{}{}
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		delete(tr.subs, s)
		if len(tr.subs) > 0 || h.trees[root] != tr {
			return
		}
		delete(h.trees, root)
		h.forget(tr, root)
		tr.anchor()
	}
}

// rescan walks a tree whose root may have appeared and notifies it.
func (h *Hub) rescan(root string) {
	h.mu.Lock()
	var fns []func()
	if tr, ok := h.trees[root]; ok {
		h.walk(tr, root)
		fns = tr.notifies(nil)
	}
	h.mu.Unlock()
	call(fns)
}

// walk watches every directory under dir not yet watched for tr.
// Callers hold h.mu.
func (h *Hub) walk(tr *tree, dir string) {
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			// Entries that vanish or cannot be read are skipped; their
			// parent's watch still reports changes to them.
			return nil
		}
		if _, ok := tr.dirs[p]; ok {
			return nil
		}
		if _, err := h.acquire([]string{p}, needAll); err != nil {
			h.log.Warn("cannot watch directory of a tree; changes inside it are seen by the periodic re-check",
				"dir", p, "tree", tr.root, "error", err)
			return fs.SkipDir
		}
		tr.dirs[p] = struct{}{}
		return nil
	})
	if err != nil {
		h.log.Debug("inotify: walking tree", "root", tr.root, "error", err)
	}
}

// forget drops tr's watches at or below dir. Callers hold h.mu.
func (h *Hub) forget(tr *tree, dir string) {
	for d := range tr.dirs {
		if isUnder(d, dir) {
			delete(tr.dirs, d)
			h.release([]link{{dir: d, need: needAll}})
		}
	}
}

// treeEvent handles an event about path, inside tr: a new directory is walked, a
// removed or renamed one forgotten (a renamed one would otherwise keep
// reporting under its old name), and the tree is notified.
// Callers hold h.mu.
func (h *Hub) treeEvent(tr *tree, path string, ev kernel.Event, fns []func()) []func() {
	switch {
	case ev.Has(created):
		h.walk(tr, path)
	case ev.Has(gone):
		h.forget(tr, path)
	}
	return tr.notifies(fns)
}

func (tr *tree) notifies(fns []func()) []func() {
	for s := range tr.subs {
		fns = append(fns, s.notify)
	}
	return fns
}
