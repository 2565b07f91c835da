package engine

import (
	"time"

	"github.com/reactive-ccm/ccm/engine/daemon/status"
	"github.com/reactive-ccm/ccm/resources"
)

// Summary counts what a run did. Each resource is counted once, by the
// last event it reported (a resource rolled back, or a subscriber that
// failed then recovered, reports more than one): rolled back, failed,
// skipped, changed, would change (noop) or stable.
type Summary struct {
	Resources int
	Changed   int
	// WouldChange counts noop resources that found something to change:
	// all of them under --noop, else those marked noop (an apply child).
	WouldChange int
	Failed      int
	// RolledBack counts resources whose change was rolled back.
	RolledBack int
	// Skipped counts vertices not run: blocked by a failed dependency,
	// skipped by control, or stopped by fail_on_error.
	Skipped int
	// Blocked is the part of Skipped caused by failures.
	Blocked   int
	Stable    int
	Refreshed int
	// Unmet counts the requirements those events name as unmet (the
	// failed resources that blocked them), as upstream's
	// requirements_unmet_count.
	Unmet int
	// Health counts the health check results of those events, by status.
	Health HealthCounts
	// Start is when the run started; it lasted Duration.
	Start    time.Time
	Duration time.Duration
	// last is each resource's last event.
	last map[string]*Event
}

// HealthCounts counts health check results by status.
type HealthCounts struct {
	Checked, OK, Warning, Critical, Unknown int
}

func (h *HealthCounts) add(results []resources.HealthResult, by int) {
	for _, r := range results {
		h.Checked += by
		switch r.Status {
		case resources.HealthOK:
			h.OK += by
		case resources.HealthWarning:
			h.Warning += by
		case resources.HealthCritical:
			h.Critical += by
		default:
			h.Unknown += by
		}
	}
}

// OK reports whether every resource reached its desired state.
func (s Summary) OK() bool { return s.Failed == 0 && s.Blocked == 0 && s.RolledBack == 0 }

// add counts ev in place of its resource's previous event.
func (s *Summary) add(ev *Event) {
	if s.last == nil {
		s.last = map[string]*Event{}
	}
	if prev := s.last[ev.ID()]; prev != nil {
		s.count(prev, -1)
	}
	s.last[ev.ID()] = ev
	s.count(ev, 1)
}

func (s *Summary) count(ev *Event, by int) {
	s.Resources += by
	if ev.Refreshed {
		s.Refreshed += by
	}
	s.Unmet += by * len(ev.UnmetRequirements)
	s.Health.add(ev.HealthChecks, by)
	switch {
	case ev.RolledBack && ev.Failed:
		s.RolledBack += by
	case ev.Failed:
		s.Failed += by
	case ev.Skipped:
		s.Skipped += by
		if len(ev.UnmetRequirements) > 0 || (len(ev.Error) > 0 && !ev.Noop) {
			s.Blocked += by
		}
	case ev.Changed && ev.Noop:
		s.WouldChange += by
	case ev.Changed:
		s.Changed += by
	default:
		s.Stable += by
	}
}

// State is the standing of every vertex of a watching engine, for status
// lines: converged, failed (Unhealthy when its health checks failed),
// rolled back, blocked by a failure, contested, paused, or waiting to be
// checked.
type State struct {
	Resources int
	Converged int
	Failed    int
	Unhealthy int
	// RolledBack counts resources held at their last good state.
	RolledBack int
	Blocked    int
	Contested  int
	Paused     int
	Pending    int
	// FailedIDs and ContestedIDs name the failed (and unhealthy) and
	// contested vertices ("type#name"), in graph order.
	FailedIDs, ContestedIDs []string
	// Writers names the program changing each contested vertex, by ID
	// ("unknown" when it could not be named).
	Writers map[string]string
}

// Counts is the state as status reports count it.
func (s State) Counts() status.Counts {
	return status.Counts{Resources: s.Resources, Converged: s.Converged, Failed: s.Failed, Unhealthy: s.Unhealthy,
		RolledBack: s.RolledBack, Blocked: s.Blocked, Contested: s.Contested, Paused: s.Paused, Pending: s.Pending}
}

// State counts the vertices by standing.
func (e *Engine) State() State {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.stateLocked()
}
