package engine

import "time"

// Observation is what one run of a vertex measured.
type Observation struct {
	// Event is the run's event, emitted or not.
	Event *Event
	// Check and Apply are the time spent in the resource's checks and in
	// its apply.
	Check, Apply time.Duration
	// Since is when the vertex became dirty: for a repair, when the drift
	// was seen.
	Since time.Time
}

// Repaired reports whether the run repaired drift: a change, not in noop
// nor paused, to a resource the host changed under ccm.
func (o Observation) Repaired() bool {
	ev := o.Event
	return ev.Changed && !ev.Noop && !ev.Failed && isDrift(ev.Trigger)
}

// DriftFound reports whether a run started by a change on the host found
// the resource out of its desired state.
func (o Observation) DriftFound() bool {
	return len(o.Event.Changes) > 0 && isDrift(o.Event.Trigger)
}
