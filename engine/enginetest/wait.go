package enginetest

import (
	"time"

	"github.com/reactive-ccm/ccm/engine"
)

// Next waits for an event that keep accepts and returns it; the events
// before it are consumed. what describes the awaited event when the wait
// times out, which fails the test.
func (r *Run) Next(what string, keep func(*engine.Event) bool) *engine.Event {
	r.tb.Helper()
	timeout := time.After(Timeout)
	for {
		if ev := r.take(keep); ev != nil {
			return ev
		}
		select {
		case <-r.added:
		case <-timeout:
			r.tb.Fatalf("%s: not within %s; engine state %+v", what, Timeout, r.engine.State())
			return nil
		}
	}
}

// take consumes the recorded events up to the first that keep accepts,
// and returns it; nil when none does.
func (r *Run) take(keep func(*engine.Event) bool) *engine.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	for len(r.events) > 0 {
		ev := r.events[0]
		r.events[0] = nil
		r.events = r.events[1:]
		if keep(ev) {
			return ev
		}
	}
	return nil
}

// Changed waits for an event of resource id (as "file#/etc/motd") that
// changed something and returns it; a failed event of id fails the test.
func (r *Run) Changed(id string) *engine.Event {
	r.tb.Helper()
	ev := r.Next("a change of "+id, func(ev *engine.Event) bool { return ev.ID() == id && (ev.Changed || ev.Failed) })
	if ev.Failed {
		r.tb.Fatalf("%s failed: %v", id, ev.Error)
	}
	return ev
}

// Settle waits until the engine has become idle since the last Settle
// (or since it started), then forgets the events recorded so far, so the
// next wait sees only what follows. The engine reports idle just before
// it emits the event of the run that made it idle; that event may be
// recorded after Settle returns.
func (r *Run) Settle() {
	r.tb.Helper()
	select {
	case <-r.settled:
	case <-time.After(Timeout):
		r.tb.Fatalf("the engine did not settle within %s; engine state %+v", Timeout, r.engine.State())
	}
	r.mu.Lock()
	r.events = nil
	r.mu.Unlock()
}
