package enginetest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
)

// Next waits for an event that keep accepts and returns it; the events
// before it are consumed. what describes the awaited event when the wait
// times out, which fails tb: the test or subtest that waits.
func (r *Run) Next(tb testing.TB, what string, keep func(*engine.Event) bool) *engine.Event {
	tb.Helper()
	return r.next(tb, func() string { return what }, keep)
}

// next is Next with a description made when the wait times out, so it
// can tell what was seen on the way.
func (r *Run) next(tb testing.TB, what func() string, keep func(*engine.Event) bool) *engine.Event {
	tb.Helper()
	timeout := time.After(r.opts.Timeout)
	for {
		if ev := r.take(keep); ev != nil {
			return ev
		}
		select {
		case <-r.added:
		case <-timeout:
			tb.Fatalf("%s: not within %s; engine state %+v", what(), r.opts.Timeout, r.engine.State())
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
// changed something and returns it. A failed event of id fails the test,
// unless Options.AllowFailures: then failures are reported only when no
// change comes in time.
func (r *Run) Changed(tb testing.TB, id string) *engine.Event {
	tb.Helper()
	var failures []string
	ev := r.next(tb, func() string {
		return fmt.Sprintf("a change of %s (failures on the way: %q)", id, failures)
	}, func(ev *engine.Event) bool {
		if ev.ID() != id {
			return false
		}
		if ev.Failed {
			failures = append(failures, strings.Join(ev.Error, "; "))
		}
		return ev.Changed || (ev.Failed && !r.opts.AllowFailures)
	})
	if ev.Failed {
		tb.Fatalf("%s failed: %s", id, strings.Join(ev.Error, "; "))
	}
	return ev
}

// Settle waits until the engine has settled since the last Settle (or
// since it started): it went idle after applying something or after a
// vertex's standing changed, as engine.Options.OnSettled reports; checks
// that found everything in order do not count. It then forgets the
// events recorded so far, so the next wait sees only what follows. The
// engine reports settling after the events that led to it.
func (r *Run) Settle(tb testing.TB) {
	tb.Helper()
	select {
	case <-r.settled:
	case <-time.After(r.opts.Timeout):
		tb.Fatalf("the engine did not settle within %s; engine state %+v", r.opts.Timeout, r.engine.State())
	}
	r.mu.Lock()
	r.events = nil
	r.mu.Unlock()
}

// Drift is a change made behind the engine's back, for RepairsEach.
type Drift struct {
	// Name names the drift's subtest.
	Name string
	// Make makes the change, failing t when it cannot.
	Make func(t *testing.T)
	// ID is the resource that repairs it, when not RepairsEach's.
	ID string
	// Want is what the drift's check expects to find after the repair.
	Want string
}

// RepairsEach makes each drift in a subtest of t, one after the other,
// and waits for resource id (or the drift's own ID) to repair it, as a
// drift, and for the engine to settle; check, unless nil, then looks at
// what the repair left.
func (r *Run) RepairsEach(t *testing.T, id string, drifts []Drift, check func(t *testing.T, d Drift)) {
	t.Helper()
	for _, d := range drifts {
		t.Run(d.Name, func(t *testing.T) {
			repairer := id
			if d.ID != "" {
				repairer = d.ID
			}
			start := time.Now()
			d.Make(t)
			made := time.Since(start)
			if ev := r.Changed(t, repairer); ev.Trigger != engine.TriggerDrift {
				t.Errorf("repair %+v, want a drift", ev)
			}
			t.Logf("%s repaired %s after the drift began (making it took %s)", repairer, time.Since(start), made)
			r.Settle(t)
			if check != nil {
				check(t, d)
			}
		})
	}
}

// Eventually polls cond until it holds, failing tb after 15 s with what
// it waited for: for what nothing reports, such as a NATS stream's
// contents, a log line, or what a test's server counted.
func Eventually(tb testing.TB, what string, cond func() bool) {
	tb.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			tb.Fatalf("timed out: %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
