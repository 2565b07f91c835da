package engine

import "time"

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
// lines: converged, failed, blocked by a failure, contested, or waiting to
// be checked.
type State struct {
	Resources int
	Converged int
	Failed    int
	Blocked   int
	Contested int
	Pending   int
	// FailedIDs and ContestedIDs name the failed and contested vertices
	// ("type#name"), in graph order.
	FailedIDs, ContestedIDs []string
}

// stateLocked counts the vertices by standing. Callers hold e.mu.
func (e *Engine) stateLocked() State {
	st := State{Resources: len(e.nodes)}
	for _, n := range e.nodes {
		switch {
		case n.contest.contested:
			st.Contested++
			st.ContestedIDs = append(st.ContestedIDs, n.v.ID())
		case n.phase == failed:
			st.Failed++
			st.FailedIDs = append(st.FailedIDs, n.v.ID())
		case n.blocked:
			st.Blocked++
		case n.dirty || n.phase == pending:
			st.Pending++
		default:
			st.Converged++
		}
	}
	return st
}

// State returns the current standing of every vertex.
func (e *Engine) State() State {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.stateLocked()
}
