package engine_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
)

// everyRepair counts every repair within the window, whatever its rhythm,
// so that any change miscounted as a repair shows.
var everyRepair = withGap(policy, policy.Window)

// desiredManifest is a config whose desired value is value, read from an
// input, with a service subscribed to it.
func desiredManifest(value string) string {
	return fmt.Sprintf(`
- fake:
    - conf: {value: %q, watch: true, input: true}
    - svc: {value: "up", subscribe: [fake#conf]}
`, value)
}

// newDesired is one way a new desired state reaches a running engine.
type newDesired struct {
	name string
	// trigger is the trigger of the run that applies the change; "" when
	// a run under way may apply it.
	trigger engine.Trigger
	// change makes value conf's desired state.
	change func(t *testing.T, w *watching, world *world, dir, value string)
}

var newDesiredStates = []newDesired{
	{"its source file changed", engine.TriggerSource, func(_ *testing.T, w *watching, world *world, _, value string) {
		w.drift(world, "input/conf", value)
	}},
	{"the manifest was reloaded", engine.TriggerReload, func(t *testing.T, w *watching, _ *world, dir, value string) {
		if _, err := w.e.Swap(t.Context(), loadIn(t, dir, desiredManifest(value))); err != nil {
			t.Fatal(err)
		}
	}},
	{"its source changed while it ran", "", func(_ *testing.T, w *watching, world *world, _, value string) {
		// The other writer strikes; while ccm checks, the source changes:
		// the repair under way and the change after it are both the
		// operator's.
		world.mu.Lock()
		world.checking = func(string) {
			world.mu.Lock()
			world.checking = nil
			world.mu.Unlock()
			w.drift(world, "input/conf", value)
		}
		world.mu.Unlock()
		w.drift(world, "conf", "theirs")
	}},
}

// startDesired starts a watching engine on desiredManifest in dir, with
// the echo of ccm's own writes delivered like inotify does.
func startDesired(t *testing.T, policy engine.ContestPolicy) (w *watching, world *world, dir string) {
	t.Helper()
	world = newWorld(t)
	dir = t.TempDir()
	w = startWatching(t, loadIn(t, dir, desiredManifest("v0")), engine.Options{Contest: policy})
	w.next(changedEvent("fake#svc"))
	world.mu.Lock()
	world.applied = func(name string) { w.src.fire("/fake/" + name) }
	world.mu.Unlock()
	w.idle()
	return w, world, dir
}

// TestNewDesiredStatesAreNeverRepairs: ten new desired states within a
// second, however they come, are each applied at once and refresh the
// subscriber each time; none is counted as a repair, none is contested.
func TestNewDesiredStatesAreNeverRepairs(t *testing.T) {
	for _, nd := range newDesiredStates {
		t.Run(nd.name, func(t *testing.T) {
			w, world, dir := startDesired(t, everyRepair)
			for i := 1; i <= 10; i++ {
				before := world.refreshed("svc")
				w.advance(100 * time.Millisecond)
				value := fmt.Sprintf("v%d", i)
				nd.change(t, w, world, dir, value)
				w.idle()
				if got := world.get("conf"); got != value {
					t.Fatalf("change %d: conf holds %q, want %q at once", i, got, value)
				}
				if got := world.refreshed("svc") - before; got != 1 {
					t.Fatalf("change %d: svc refreshed %d times, want once", i, got)
				}
				var triggers []engine.Trigger
				for len(w.events) > 0 {
					ev := <-w.events
					if ev.Contested {
						t.Fatalf("change %d reported contested: %+v", i, ev)
					}
					if ev.ID() == "fake#conf" && ev.Changed {
						triggers = append(triggers, ev.Trigger)
					}
				}
				if len(triggers) == 0 || (nd.trigger != "" && triggers[len(triggers)-1] != nd.trigger) {
					t.Fatalf("change %d applied with triggers %v, want the last %s", i, triggers, nd.trigger)
				}
			}
			if st := w.e.State(); st.Contested != 0 {
				t.Fatalf("state %+v, want nothing contested", st)
			}
		})
	}
}

// TestANewDesiredStateEndsAContest: a contested resource given a new
// desired state applies it at once, back-off or not, is no longer
// contested, and refreshes its subscriber with the refresh the fight
// held; the fight, if it goes on, is counted afresh.
func TestANewDesiredStateEndsAContest(t *testing.T) {
	for _, nd := range newDesiredStates[:2] {
		t.Run(nd.name, func(t *testing.T) {
			w, world, dir := startDesired(t, policy)
			strike := func() (contested bool) {
				w.advance(100 * time.Millisecond)
				w.drift(world, "conf", "theirs")
				w.idle()
				for len(w.events) > 0 {
					contested = contested || (<-w.events).Contested
				}
				return contested
			}
			for i := 1; !strike(); i++ {
				if i > policy.Limit+1 {
					t.Fatalf("not contested after %d quick repairs", i)
				}
			}
			before := world.refreshed("svc")
			strike() // during the back-off: not repaired, refresh held
			if world.get("conf") != "theirs" {
				t.Fatal("a contested resource was repaired during its back-off")
			}
			nd.change(t, w, world, dir, "v1")
			w.idle()
			if got := world.get("conf"); got != "v1" {
				t.Fatalf("conf holds %q, want the new desired state at once", got)
			}
			if st := w.e.State(); st.Contested != 0 {
				t.Fatalf("state %+v, want no longer contested", st)
			}
			if got := world.refreshed("svc") - before; got != 1 {
				t.Fatalf("svc refreshed %d times, want once: the change's refresh with the one held", got)
			}
			for i := 1; i <= policy.Limit; i++ {
				if strike() {
					t.Fatalf("contested again at repair %d after the new desired state, want the count started afresh", i)
				}
			}
			if !strike() {
				t.Fatalf("%d quick repairs after the new desired state, want contested again", policy.Limit+1)
			}
		})
	}
}

// TestARunDuringWhichTheDesiredStateChangedIsNoRepair: a repair under way
// when the source changes may apply the new desired state; it is not
// counted, so the fight after it needs its full count to be contested.
func TestARunDuringWhichTheDesiredStateChangedIsNoRepair(t *testing.T) {
	w, world, dir := startDesired(t, policy)
	w.advance(100 * time.Millisecond)
	newDesiredStates[2].change(t, w, world, dir, "v1")
	w.idle()
	if got := world.get("conf"); got != "v1" {
		t.Fatalf("conf holds %q, want v1", got)
	}
	for i := 1; i <= policy.Limit+1; i++ {
		w.advance(100 * time.Millisecond)
		w.drift(world, "conf", "theirs")
		w.idle()
		contested := false
		for len(w.events) > 0 {
			contested = contested || (<-w.events).Contested
		}
		if contested != (i == policy.Limit+1) {
			t.Fatalf("repair %d: contested %v, want contested at repair %d", i, contested, policy.Limit+1)
		}
	}
}
