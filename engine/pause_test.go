package engine_test

import (
	"errors"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/status"
)

const pausedConfig = `
- fake:
    - config: {value: "good", watch: true}
    - restart: {value: "up", subscribe: [fake#config]}
`

func (w *watching) refreshes(world *world, name string) int {
	world.mu.Lock()
	defer world.mu.Unlock()
	return world.refreshes[name]
}

func TestPausedResourceIsCheckedNotChangedUntilThePauseEnds(t *testing.T) {
	world := newWorld(t)
	// No periodic re-check: the clock jumps past its time.
	w := startWatching(t, load(t, pausedConfig), engine.Options{Recheck: -1})
	w.next(changedEvent("fake#restart"))
	w.idle()
	before := w.refreshes(world, "restart")
	until := w.clock.Now().Add(time.Hour)
	if err := w.e.Pause([]string{"fake#config"}, status.Pause{By: "tester", Since: w.clock.Now(), Until: until}); err != nil {
		t.Fatal(err)
	}

	w.drift(world, "config", "tampered")
	ev := w.next(func(ev *engine.Event) bool { return ev.ID() == "fake#config" })
	if !ev.Paused || !ev.Noop || !ev.Changed || ev.Standing != status.Paused || len(ev.Changes) != 1 || ev.Changes[0].String() != "value tampered → good" {
		t.Fatalf("paused event = %+v", ev)
	}
	w.src.fire("/fake/config")
	w.idle()
	w.none("the same drift reported twice", func(ev *engine.Event) bool { return ev.ID() == "fake#config" })
	if world.get("config") != "tampered" || w.refreshes(world, "restart") != before {
		t.Fatalf("a paused resource changed %q or refreshed its subscriber", world.get("config"))
	}
	st := w.e.Status()
	res := st.Resources[0]
	if res.Standing != status.Paused || res.Paused.By != "tester" || !res.Paused.Until.Equal(until) || len(res.Drift) != 1 || st.Counts.Paused != 1 {
		t.Fatalf("status = %+v", st)
	}

	w.advance(time.Hour)
	ev = w.next(changedEvent("fake#config"))
	if ev.Trigger != engine.TriggerResume || ev.Paused || world.get("config") != "good" {
		t.Fatalf("after the pause: %+v, value %q", ev, world.get("config"))
	}
	w.next(changedEvent("fake#restart"))
	if w.refreshes(world, "restart") != before+1 {
		t.Fatal("the repair after the pause did not refresh the subscriber")
	}
}

func TestResumeDeliversTheRefreshHeldBack(t *testing.T) {
	world := newWorld(t)
	w := startWatching(t, load(t, pausedConfig), engine.Options{})
	w.next(changedEvent("fake#restart"))
	w.idle()
	before := w.refreshes(world, "restart")
	if err := w.e.Pause([]string{"fake#restart"}, status.Pause{By: "tester"}); err != nil {
		t.Fatal(err)
	}
	w.drift(world, "config", "tampered")
	w.next(changedEvent("fake#config"))
	w.idle()
	if w.refreshes(world, "restart") != before {
		t.Fatal("a paused subscriber consumed a refresh")
	}
	if err := w.e.Resume([]string{"fake#restart"}); err != nil {
		t.Fatal(err)
	}
	if ev := w.next(changedEvent("fake#restart")); !ev.Refreshed || ev.Trigger != engine.TriggerResume {
		t.Fatalf("event on resume = %+v", ev)
	}
	if err := w.e.Pause([]string{"fake#nothing"}, status.Pause{}); !errors.Is(err, engine.ErrUnknownResource) {
		t.Fatalf("pausing an unknown resource: %v", err)
	}
}

func TestQuietStreamReportsChangesAndStandingsOnly(t *testing.T) {
	world := newWorld(t)
	w := startWatching(t, load(t, pausedConfig), engine.Options{Recheck: -1})
	first := w.next(func(ev *engine.Event) bool { return ev.ID() == "fake#config" })
	if first.Standing != status.Converged || first.PreviousStanding != "" {
		t.Fatalf("first run = %+v", first)
	}
	w.idle()
	w.none("nothing but first runs", func(ev *engine.Event) bool { return ev.Trigger != engine.TriggerStartup })
	w.src.fire("/fake/config")
	w.idle()
	w.none("a check that found nothing to do", func(*engine.Event) bool { return true })

	world.mu.Lock()
	world.failing["config"] = true
	world.mu.Unlock()
	w.src.fire("/fake/config")
	if ev := w.next(func(ev *engine.Event) bool { return ev.ID() == "fake#config" }); !ev.Failed || ev.PreviousStanding != status.Converged {
		t.Fatalf("failure = %+v", ev)
	}
	world.mu.Lock()
	world.failing["config"] = false
	world.mu.Unlock()
	w.advance(time.Minute)
	ev := w.next(func(ev *engine.Event) bool { return ev.ID() == "fake#config" })
	if ev.Changed || ev.Failed || ev.PreviousStanding != status.Failed || ev.Standing != status.Converged {
		t.Fatalf("recovery without a change = %+v", ev)
	}
}
