package engine

import (
	"time"

	"github.com/reactive-ccm/ccm/engine/status"
)

// Summary counts what a run did. Each resource is counted once by its
// worst outcome: failed, then skipped, then changed, then stable.
type Summary struct {
	Resources int
	Changed   int
	Failed    int
	// Skipped counts vertices not run: blocked by a failed dependency,
	// skipped by control, or stopped by fail_on_error.
	Skipped int
	// Blocked is the part of Skipped caused by failures.
	Blocked   int
	Stable    int
	Refreshed int
	Duration  time.Duration
}

// OK reports whether every resource reached its desired state.
func (s Summary) OK() bool { return s.Failed == 0 && s.Blocked == 0 }

func (s *Summary) add(ev *Event) {
	s.Resources++
	if ev.Refreshed {
		s.Refreshed++
	}
	switch {
	case ev.Failed:
		s.Failed++
	case ev.Skipped:
		s.Skipped++
		if len(ev.UnmetRequirements) > 0 || (len(ev.Error) > 0 && !ev.Noop) {
			s.Blocked++
		}
	case ev.Changed:
		s.Changed++
	default:
		s.Stable++
	}
}

// State is the standing of every vertex of a watching engine, for status
// lines: converged, failed, blocked by a failure, contested, paused, or
// waiting to be checked.
type State struct {
	Resources int
	Converged int
	Failed    int
	Blocked   int
	Contested int
	Paused    int
	Pending   int
	// FailedIDs and ContestedIDs name the failed and contested vertices
	// ("type#name"), in graph order.
	FailedIDs, ContestedIDs []string
}

// Counts is the state as status reports count it.
func (s State) Counts() status.Counts {
	return status.Counts{Resources: s.Resources, Converged: s.Converged, Failed: s.Failed, Blocked: s.Blocked,
		Contested: s.Contested, Paused: s.Paused, Pending: s.Pending}
}

// stateLocked counts the vertices by standing. Callers hold e.mu.
func (e *Engine) stateLocked() State {
	var c status.Counts
	var st State
	now := e.opts.Clock.Now()
	for _, n := range e.nodes {
		standing := e.standingOf(n, now, true)
		c.Add(standing)
		switch standing {
		case status.Failed:
			st.FailedIDs = append(st.FailedIDs, n.v.ID())
		case status.Contested:
			st.ContestedIDs = append(st.ContestedIDs, n.v.ID())
		}
	}
	st.Resources, st.Converged, st.Failed, st.Blocked = c.Resources, c.Converged, c.Failed, c.Blocked
	st.Contested, st.Paused, st.Pending = c.Contested, c.Paused, c.Pending
	return st
}

// State returns the current standing of every vertex.
func (e *Engine) State() State {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.stateLocked()
}
