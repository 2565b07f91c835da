package engine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/reactive-ccm/ccm/engine/daemon/state"
	"github.com/reactive-ccm/ccm/resources"
)

// Rollback, in short: before a new desired state (at start-up, after a
// reload or a release) changes a resource that can be undone and whose
// subscribers have health checks, the engine keeps what the change
// replaces ("armed"). The subscribers it refreshes then judge it: when all
// pass their checks the kept state is dropped; when one fails CRITICAL the
// resource is put back as it was, refreshed subscribers are refreshed
// again, and the resource is held at that last good state ("rolled back")
// until its desired state changes again or it is released. A held
// resource repairs drift towards the kept state, never towards the change
// that broke its subscriber.

// undoState is a vertex's part in rollbacks.
type undoState struct {
	// undo is the vertex's rollback handle; nil when rollback is off for
	// it or its resource cannot be undone.
	undo resources.Undoable
	// saved is the state kept for a rollback: armed while judges judge a
	// change, the last good state while held.
	saved []byte
	// judges are the subscribers whose health checks have yet to pass
	// after this vertex's change refreshed them.
	judges map[*node]bool
	// rollbackWhy is set when a subscriber's CRITICAL check asks for this
	// vertex's change to be rolled back, until it is.
	rollbackWhy string
	// held is set once the change was rolled back: the vertex keeps its
	// last good state until its desired state changes or it is released.
	held    bool
	heldWhy string
}

// rollbackDir is the subdirectory of the state directory holding one
// record per resource whose change is armed or held.
const rollbackDir = "rollback"

// rollbackRecord is what the state directory keeps for a resource, so a
// restart neither forgets how to undo a change being judged nor applies a
// change that was rolled back.
type rollbackRecord struct {
	ID          string `json:"id"`
	Fingerprint string `json:"fingerprint"`
	// Held is set once the change was rolled back.
	Held   bool   `json:"held"`
	Reason string `json:"reason,omitempty"`
	// Saved is the resource's state before the change (resources.Undoable).
	Saved []byte `json:"saved"`
}

// rollbackStore keeps rollback records in the state directory; a nil
// store keeps them in memory only.
type rollbackStore struct {
	dir *state.Dir
	key string
	log *slog.Logger
}

// openRollback returns the store of the graph's rollback records, or nil
// without a state directory, or when nothing may be rolled back.
func openRollback(e *Engine) (*rollbackStore, error) {
	if e.opts.State == nil || e.opts.Noop || e.opts.MonitorOnly {
		return nil, nil
	}
	dir, err := e.opts.State.Sub(rollbackDir)
	if err != nil {
		return nil, fmt.Errorf("rollback: %w", err)
	}
	key := e.opts.StateKey
	if key == "" {
		key = graphKey(e.g)
	}
	return &rollbackStore{dir: dir, key: key, log: e.opts.Logger}, nil
}

func (s *rollbackStore) name(id string) string { return state.Key(s.key, id) + ".json" }

// put writes rec; a failure is logged, the rollback then lives in memory.
func (s *rollbackStore) put(rec rollbackRecord) {
	if s == nil {
		return
	}
	if err := s.dir.WriteJSON(s.name(rec.ID), rec); err != nil {
		s.log.Error("rollback state cannot be saved; it will not survive a restart", "resource", rec.ID, "error", err)
	}
}

func (s *rollbackStore) drop(id string) {
	if s == nil {
		return
	}
	if err := s.dir.Remove(s.name(id)); err != nil {
		s.log.Error("rollback state cannot be removed", "resource", id, "error", err)
	}
}

func (s *rollbackStore) get(id string) (rollbackRecord, bool) {
	var rec rollbackRecord
	if s == nil {
		return rec, false
	}
	found, err := s.dir.ReadJSON(s.name(id), &rec)
	if err != nil {
		s.log.Error("rollback state cannot be read; ignoring it", "resource", id, "error", err)
		return rec, false
	}
	return rec, found
}

func (s *rollbackStore) close() {
	if s != nil {
		_ = s.dir.Close()
	}
}

// undoOf is v's rollback handle: its resource when it can be undone and
// rollback is on for it (its own rollback setting, else the run's).
func (e *Engine) undoOf(n *node) resources.Undoable {
	if e.noop(n) || e.monitorOnly(n) {
		return nil
	}
	on := e.opts.Rollback
	if n.v.Rollback != nil {
		on = *n.v.Rollback
	}
	u, ok := n.v.Resource.(resources.Undoable)
	if !on || !ok {
		return nil
	}
	return u
}

// readRecords reads the records of the nodes that may be rolled back. It
// does I/O and holds no lock.
func (e *Engine) readRecords(nodes []*node) map[*node]rollbackRecord {
	recs := map[*node]rollbackRecord{}
	for _, n := range nodes {
		if n.undo == nil {
			continue
		}
		if rec, found := e.rollbacks.get(n.v.ID()); found {
			recs[n] = rec
		}
	}
	return recs
}

// applyRecords gives nodes the state their records hold: held again when
// the record is for the same desired state, armed again when a change was
// still being judged; a record for another desired state is dropped.
// Callers hold e.mu.
func (e *Engine) applyRecords(recs map[*node]rollbackRecord) {
	for n, rec := range recs {
		switch {
		case rec.Fingerprint != n.v.Fingerprint:
			id := n.v.ID()
			e.undoIO = append(e.undoIO, func() { e.rollbacks.drop(id) })
		case rec.Held:
			n.held, n.heldWhy, n.saved = true, rec.Reason, rec.Saved
			e.touch(n)
			e.opts.Logger.Warn("rolled back before ccm last stopped: holding the last good state", "resource", n.v.ID(), "reason", rec.Reason)
		default:
			n.saved, n.judges = rec.Saved, healthSubs(n)
		}
	}
}

// rejudge points the judges of kept vertices at the vertices replacing
// them after a reload. Callers hold e.mu.
func (e *Engine) rejudge() {
	for _, n := range e.nodes {
		for j := range n.judges {
			if !j.life.gone() {
				continue
			}
			delete(n.judges, j)
			if f := e.byID[j.v.ID()]; f != nil && len(f.v.Health) > 0 {
				n.judges[f] = true
			}
		}
	}
}

// healthSubs are the subscribers whose health checks judge a change.
func healthSubs(n *node) map[*node]bool {
	var out map[*node]bool
	for _, s := range n.subs {
		if len(s.v.Health) > 0 {
			if out == nil {
				out = map[*node]bool{}
			}
			out[s] = true
		}
	}
	return out
}

// isNewDesiredState reports whether a trigger applies a desired state the
// manifest (or an operator's release) just asked for, as opposed to
// repairing drift: only such changes are kept for a rollback.
func isNewDesiredState(t Trigger) bool {
	return t == TriggerStartup || t == TriggerReload || t == TriggerResume || t == TriggerSource
}

// undoPlan says what a run of a vertex does about rollback, decided
// under e.mu when the run starts.
type undoPlan struct {
	// restore puts saved back instead of converging: the vertex is held,
	// or a subscriber just asked for its change to be rolled back.
	restore bool
	// keep saves the state before an apply, for a rollback.
	keep  bool
	saved []byte
	// undo is the vertex's handle as it stood when the run started: a
	// reload may replace the node's while the run is under way.
	undo resources.Undoable
	// judging is set on a subscriber whose refresh judges a change: its
	// health checks run even when its apply failed.
	judging bool
}

// takeUndoPlan decides the run's undoPlan. Callers hold e.mu.
func (n *node) takeUndoPlan(trig Trigger) undoPlan {
	p := undoPlan{saved: n.saved, undo: n.undo, judging: n.refresh && n.judged()}
	switch {
	case n.restoring():
		p.restore = true
	case n.undo != nil && isNewDesiredState(trig) && len(healthSubs(n)) > 0:
		p.keep = true
	}
	return p
}

// restoring reports whether n's next run puts its kept state back: it is
// held, or a subscriber asked for its change to be rolled back. Callers
// hold e.mu.
func (n *node) restoring() bool {
	return n.undo != nil && (n.held || n.rollbackWhy != "")
}

// judged reports whether a parent waits for this vertex's verdict on its
// change. Callers hold e.mu.
func (n *node) judged() bool {
	for _, p := range n.parents {
		if p.judges[n] {
			return true
		}
	}
	return false
}

// keepBeforeApply returns the hook that saves n's state just before its
// apply, into the state directory first, and hands it to ev.
func (e *Engine) keepBeforeApply(n *node, u resources.Undoable, ev *Event) func(context.Context) error {
	return func(ctx context.Context) error {
		saved, err := u.Save(ctx)
		if err != nil {
			e.opts.Logger.Warn("this change cannot be rolled back", "resource", n.v.ID(), "error", err)
			return nil
		}
		e.rollbacks.put(rollbackRecord{ID: n.v.ID(), Fingerprint: n.v.Fingerprint, Saved: saved})
		ev.saved = saved
		return nil
	}
}

// restore puts n back in its kept state, for a rollback or a held
// vertex's repair.
func (e *Engine) restore(ctx context.Context, n *node, p undoPlan, ev *Event) (resources.Outcome, error) {
	changed, err := p.undo.Restore(ctx, p.saved)
	out := resources.Outcome{Applied: changed, Change: resources.Change{Changed: changed}}
	ev.RolledBack = true
	return out, err
}

// settleUndo records what a run did about rollback, in finish: a kept
// state armed or dropped, a rollback done, a subscriber's verdict. first
// is set on a vertex's first run in this engine. Callers hold e.mu.
func (e *Engine) settleUndo(n *node, ev *Event, out resources.Outcome, err error, refresh, first bool, now time.Time) {
	switch {
	case ev.RolledBack && err == nil:
		e.rolledBack(n, ev, first)
	case ev.saved != nil && err == nil && out.Change.Changed:
		n.saved, n.judges = ev.saved, healthSubs(n)
	case ev.saved != nil:
		id := n.v.ID()
		e.undoIO = append(e.undoIO, func() { e.rollbacks.drop(id) })
	}
	if refresh {
		e.judge(n, err, now)
	}
}

// rolledBack records a run that put n back, or kept it, in its last good
// state. The rollback itself is reported as a failure with its reason, and
// so is a held vertex's first run (a restart, a one-shot run): the
// manifest's desired state is not applied. Later runs of a held vertex
// only repair drift towards the last good state.
func (e *Engine) rolledBack(n *node, ev *Event, first bool) {
	why := n.rollbackWhy
	if why != "" {
		n.held, n.heldWhy, n.rollbackWhy = true, why, ""
		rec := rollbackRecord{ID: n.v.ID(), Fingerprint: n.v.Fingerprint, Held: true, Reason: why, Saved: n.saved}
		e.undoIO = append(e.undoIO, func() { e.rollbacks.put(rec) })
		e.changed = true
		ev.Failed, ev.Error = true, []string{why}
		e.opts.Logger.Warn("rolled back: its change broke a subscriber; holding the last good state until the manifest changes it again or it is released",
			"resource", n.v.ID(), "reason", why)
		return
	}
	ev.Error = []string{"held at its last good state since its change broke " + n.heldWhy}
	ev.Failed = first
}

// judge takes a subscriber's verdict on the changes whose refresh it
// just consumed: a CRITICAL check rolls them back, passing checks accept
// them; other failures leave the judgement to a later run.
func (e *Engine) judge(s *node, err error, now time.Time) {
	var he *HealthError
	critical := errors.As(err, &he) && he.critical()
	for _, p := range s.parents {
		if !p.judges[s] {
			continue
		}
		switch {
		case critical:
			p.judges = nil
			p.rollbackWhy = s.v.ID() + " " + he.Error()
			e.markDirty(p, TriggerRollback)
			e.schedule(p, now)
		case err == nil:
			delete(p.judges, s)
			if len(p.judges) == 0 {
				p.saved, p.judges = nil, nil
				id := p.v.ID()
				e.undoIO = append(e.undoIO, func() { e.rollbacks.drop(id) })
			}
		}
	}
}

// Release lets the held vertices named by ids (all of them when ids is
// empty) apply their manifest's desired state again, and returns the ids
// released. A released change is kept again, so it can be rolled back
// again. `ccm resume` releases through Resume and ResumeAll.
func (e *Engine) Release(ids ...string) []string {
	e.mu.Lock()
	var released []string
	for _, n := range e.nodes {
		if len(ids) > 0 && !slices.Contains(ids, n.v.ID()) {
			continue
		}
		if e.release(n) {
			released = append(released, n.v.ID())
		}
	}
	e.checkIdle()
	e.mu.Unlock()
	e.flush()
	return released
}

// release ends n's hold at its last good state, if it has one, and marks
// it to apply its desired state again; the caller schedules it. Callers
// hold e.mu.
func (e *Engine) release(n *node) bool {
	if !n.held {
		return false
	}
	n.held, n.heldWhy, n.saved = false, "", nil
	id := n.v.ID()
	e.undoIO = append(e.undoIO, func() { e.rollbacks.drop(id) })
	e.markDirty(n, TriggerResume)
	e.changed = true
	e.schedule(n, e.opts.Clock.Now())
	return true
}
