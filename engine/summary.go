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
	// last is what was counted of each resource's last event.
	last map[string]summed
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

// expect makes room for the resources of a graph of n vertices, each of
// which adds an event: a map grown one doubling at a time rehashes what it
// holds each time.
func (s *Summary) expect(n int) {
	if s.last == nil {
		s.last = make(map[string]summed, n)
	}
}

// add counts ev in place of its resource's previous event.
func (s *Summary) add(ev *Event) {
	s.expect(0)
	id := ev.ID()
	if prev, ok := s.last[id]; ok {
		s.count(prev, -1)
	}
	c := summedOf(ev)
	s.last[id] = c
	s.count(c, 1)
}

// summed is what Summary counts of an event, kept for each resource in
// place of its last event, which a watching engine would otherwise hold
// for every resource for good.
type summed struct {
	kind      summedAs
	refreshed bool
	unmet     int
	health    HealthCounts
}

// summedAs is how Summary counts a resource.
type summedAs uint8

const (
	outStable summedAs = iota
	outChanged
	outWouldChange
	outFailed
	outRolledBack
	outSkipped
	// outBlocked is skipped because of a failure.
	outBlocked
)

func summedOf(ev *Event) summed {
	c := summed{refreshed: ev.Refreshed, unmet: len(ev.UnmetRequirements)}
	c.health.add(ev.HealthChecks, 1)
	switch {
	case ev.RolledBack && ev.Failed:
		c.kind = outRolledBack
	case ev.Failed:
		c.kind = outFailed
	case ev.Skipped && (len(ev.UnmetRequirements) > 0 || (len(ev.Error) > 0 && !ev.Noop)):
		c.kind = outBlocked
	case ev.Skipped:
		c.kind = outSkipped
	case ev.Changed && ev.Noop:
		c.kind = outWouldChange
	case ev.Changed:
		c.kind = outChanged
	}
	return c
}

func (s *Summary) count(c summed, by int) {
	s.Resources += by
	if c.refreshed {
		s.Refreshed += by
	}
	s.Unmet += by * c.unmet
	s.Health.Checked += by * c.health.Checked
	s.Health.OK += by * c.health.OK
	s.Health.Warning += by * c.health.Warning
	s.Health.Critical += by * c.health.Critical
	s.Health.Unknown += by * c.health.Unknown
	switch c.kind {
	case outRolledBack:
		s.RolledBack += by
	case outFailed:
		s.Failed += by
	case outBlocked:
		s.Blocked += by
		s.Skipped += by
	case outSkipped:
		s.Skipped += by
	case outWouldChange:
		s.WouldChange += by
	case outChanged:
		s.Changed += by
	default:
		s.Stable += by
	}
}

// State is the standing of every vertex of a watching engine, for status
// lines: the vertices counted as status reports count them (converged,
// failed, unhealthy when its health checks failed, rolled back, blocked by
// a failure, contested, paused, or waiting to be checked), and the ones
// that need a look named.
type State struct {
	status.Counts
	// FailedIDs and ContestedIDs name the failed (and unhealthy) and
	// contested vertices ("type#name"), in graph order.
	FailedIDs, ContestedIDs []string
	// Writers names the program changing each contested vertex, by ID
	// ("unknown" when it could not be named).
	Writers map[string]string
}

// State counts the vertices by standing.
func (e *Engine) State() State {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.stateLocked()
}
