package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"slices"

	"github.com/reactive-ccm/ccm/engine/daemon/state"
	"github.com/reactive-ccm/ccm/graph"
)

// refreshDir is the subdirectory of the state directory holding one file
// of pending refreshes per graph.
const refreshDir = "refreshes"

// refreshFile is what a graph's file of pending refreshes holds.
type refreshFile struct {
	// Pending lists the vertices ("exec#restart-app") owed a refresh: a
	// resource they subscribe to changed and their apply has not yet
	// succeeded since.
	Pending []string `json:"pending"`
}

// refreshStore keeps a graph's pending refreshes in the state directory,
// so a refresh owed when ccm stops (crash, upgrade, reboot) is replayed
// when it starts again.
type refreshStore struct {
	dir  *state.Dir
	name string
	log  *slog.Logger
	// readOnly is set in noop: pending refreshes are replayed as "would
	// refresh" but never consumed or added.
	readOnly bool
	// saved is what the file holds, so unchanged sets are not rewritten.
	saved []string
	// failing is set after a failed write, so a broken disk is reported
	// once, not at every change.
	failing bool
}

// openRefreshes returns the store of g's pending refreshes, or nil when
// the engine keeps them in memory only.
func openRefreshes(g *graph.Graph, opts Options) (*refreshStore, error) {
	if opts.State == nil {
		return nil, nil
	}
	dir, err := opts.State.Sub(refreshDir)
	if opts.Noop && errors.Is(err, fs.ErrNotExist) {
		// A noop run's state directory is read-only: none were ever kept.
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("pending refreshes: %w", err)
	}
	key := opts.StateKey
	if key == "" {
		key = graphKey(g)
	}
	return &refreshStore{dir: dir, name: key + ".json", log: opts.Logger, readOnly: opts.Noop}, nil
}

// graphKey names a graph by its manifest files, in order.
func graphKey(g *graph.Graph) string {
	files := make([]string, len(g.Manifests))
	for i, m := range g.Manifests {
		files[i] = m.File
	}
	return state.Key(files...)
}

// load returns the pending refreshes the file holds.
func (s *refreshStore) load() ([]string, error) {
	var f refreshFile
	if _, err := s.dir.ReadJSON(s.name, &f); err != nil {
		return nil, err
	}
	s.saved = f.Pending
	return f.Pending, nil
}

// save makes the file hold ids, sorted; an empty set removes it. A
// failure is logged: the engine goes on with its refreshes in memory.
func (s *refreshStore) save(ids []string) {
	if s.readOnly || slices.Equal(ids, s.saved) {
		return
	}
	var err error
	if len(ids) == 0 {
		err = s.dir.Remove(s.name)
	} else {
		err = s.dir.WriteJSON(s.name, refreshFile{Pending: ids})
	}
	if err != nil {
		if !s.failing {
			s.log.Error("pending refreshes cannot be saved; they will not survive a restart", "error", err)
		}
		s.failing = true
		return
	}
	if s.failing {
		s.log.Info("pending refreshes are saved again", "file", s.dir.Path())
	}
	s.failing = false
	s.saved = ids
}

// close closes the store; when it holds nothing, the directory its
// records made goes too (Prune), so a run whose refreshes were all done
// leaves no trace of them.
func (s *refreshStore) close() {
	if s == nil {
		return
	}
	if len(s.saved) == 0 {
		s.dir.Prune()
	}
	_ = s.dir.Close()
}

// replay marks the vertices the store lists as owed a refresh; ids the
// graph no longer has are dropped from the file at the next save.
// Callers hold e.mu.
func (e *Engine) replay() error {
	if e.refreshes == nil {
		return nil
	}
	ids, err := e.refreshes.load()
	if err != nil {
		return fmt.Errorf("pending refreshes: %w", err)
	}
	var replayed []string
	for _, id := range ids {
		if n, ok := e.byID[id]; ok {
			n.refresh = true
			replayed = append(replayed, id)
		}
	}
	if len(ids) > 0 {
		e.pendingChanged = true
		e.opts.Logger.Info("replaying refreshes pending when ccm last stopped", "resources", replayed, "dropped", len(ids)-len(replayed))
	}
	return nil
}

// pendingIDs lists the vertices owed a refresh, sorted: those whose
// refresh is pending or being consumed right now, and the subscribers of
// contested vertices holding one. Callers hold e.mu.
func (e *Engine) pendingIDs() []string {
	var ids []string
	for _, n := range e.nodes {
		// A refresh owed to a vertex in noop predicts; it is not kept.
		if (n.refresh || n.refreshing) && !e.noop(n) {
			ids = append(ids, n.v.ID())
		}
		if n.contest.held {
			for _, s := range n.subs {
				ids = append(ids, s.v.ID())
			}
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}
