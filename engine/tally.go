package engine

import (
	"slices"
	"time"

	"github.com/reactive-ccm/ccm/engine/daemon/status"
)

// tally keeps the vertices counted by standing as they change, so that
// the engine going idle after one repair among 10,000 vertices looks at
// the one that ran, not at all 10,000 (a third of the daemon's CPU per
// repair at that size). Guarded by Engine.mu.
type tally struct {
	counts status.Counts
	// flagged holds the vertices counted failed, unhealthy or contested:
	// the ones State names.
	flagged map[*node]struct{}
	// touched holds the vertices whose standing may have changed since
	// they were counted.
	touched []*node
	// stale makes the next count look at every vertex: the graph changed.
	stale bool
	// paused is set while a pause was in force at the last count. A pause
	// changes the standing of vertices nobody touched, and ends by time,
	// so while one exists, and once more after, every vertex is counted.
	paused bool
}

// counted is a vertex's place in the tally.
type counted struct {
	// standing is the vertex's standing as Engine.tally counts it, ""
	// until counted; touched is set while it waits to be counted again.
	standing status.Standing
	touched  bool
}

// touch notes that n's standing may have changed: whatever sets its
// phase, dirty, blocked, unhealthy, held or contested state calls it.
// Callers hold e.mu.
func (e *Engine) touch(n *node) {
	if !n.touched {
		n.touched = true
		e.tally.touched = append(e.tally.touched, n)
	}
}

// markDirty marks n dirty with trigger t and touches it. Callers hold
// e.mu.
func (e *Engine) markDirty(n *node, t Trigger) {
	n.markDirty(t, e.opts.Clock.Now())
	e.nudge(n, t)
	e.touch(n)
}

// count brings the tally up to date at now. Callers hold e.mu.
func (e *Engine) count(now time.Time) {
	t := &e.tally
	paused := len(e.pauses) > 0 || e.pausedAll != nil
	if t.stale || paused || t.paused {
		t.counts, t.flagged = status.Counts{}, map[*node]struct{}{}
		for _, n := range e.nodes {
			n.standing = ""
		}
		t.touched = append(t.touched, e.nodes...)
		t.stale = false
	}
	t.paused = paused
	for _, n := range t.touched {
		n.touched = false
		if !n.life.gone() {
			e.recount(n, now)
		}
	}
	t.touched = t.touched[:0]
}

// recount moves n to the count of its standing at now. Callers hold e.mu.
func (e *Engine) recount(n *node, now time.Time) {
	s := e.standingOf(n, now, true)
	if s == n.standing {
		return
	}
	t := &e.tally
	if n.standing != "" {
		t.counts.Remove(n.standing)
	}
	t.counts.Add(s)
	n.standing = s
	switch s {
	case status.Failed, status.Unhealthy, status.Contested:
		t.flagged[n] = struct{}{}
	default:
		delete(t.flagged, n)
	}
}

// stateLocked counts the vertices by standing. Callers hold e.mu.
func (e *Engine) stateLocked() State {
	e.count(e.opts.Clock.Now())
	st := State{Counts: e.tally.counts}
	flagged := make([]*node, 0, len(e.tally.flagged))
	for n := range e.tally.flagged {
		flagged = append(flagged, n)
	}
	slices.SortFunc(flagged, func(a, b *node) int { return a.index - b.index })
	for _, n := range flagged {
		if n.standing != status.Contested {
			st.FailedIDs = append(st.FailedIDs, n.v.ID())
			continue
		}
		st.ContestedIDs = append(st.ContestedIDs, n.v.ID())
		if st.Writers == nil {
			st.Writers = map[string]string{}
		}
		st.Writers[n.v.ID()] = n.contest.writer
	}
	return st
}
