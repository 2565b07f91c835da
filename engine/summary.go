package engine

import (
	"time"

	"github.com/reactive-ccm/ccm/resources"
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
	// Health counts every health check result reported, by status.
	Health   HealthCounts
	Duration time.Duration
}

// HealthCounts counts health check results by status.
type HealthCounts struct {
	Checked, OK, Warning, Critical, Unknown int
}

func (h *HealthCounts) add(results []resources.HealthResult) {
	for _, r := range results {
		h.Checked++
		switch r.Status {
		case resources.HealthOK:
			h.OK++
		case resources.HealthWarning:
			h.Warning++
		case resources.HealthCritical:
			h.Critical++
		default:
			h.Unknown++
		}
	}
}

// OK reports whether every resource reached its desired state.
func (s Summary) OK() bool { return s.Failed == 0 && s.Blocked == 0 }

func (s *Summary) add(ev *Event) {
	s.Resources++
	if ev.Refreshed {
		s.Refreshed++
	}
	s.Health.add(ev.HealthChecks)
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
// lines: converged, failed (Unhealthy when its health checks failed),
// blocked by a failure, contested, or waiting to be checked.
type State struct {
	Resources int
	Converged int
	Failed    int
	Unhealthy int
	Blocked   int
	Contested int
	Pending   int
}

// stateLocked counts the vertices by standing. Callers hold e.mu.
func (e *Engine) stateLocked() State {
	st := State{Resources: len(e.nodes)}
	for _, n := range e.nodes {
		switch {
		case n.contest.contested:
			st.Contested++
		case n.phase == failed && n.unhealthy:
			st.Unhealthy++
		case n.phase == failed:
			st.Failed++
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
