package engine_test

import (
	"testing"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/status"
)

// TestPauseAllHoldsEveryResourceUntilResumeAll: a pause of everything
// covers every vertex (status says so); drift is reported as what would be
// repaired, and repaired only once every pause ends.
func TestPauseAllHoldsEveryResourceUntilResumeAll(t *testing.T) {
	world := newWorld(t)
	w := startWatching(t, load(t, pausedConfig), engine.Options{Recheck: -1})
	w.next(changedEvent("fake#restart"))
	w.idle()
	w.e.PauseAll(status.Pause{By: "tester", Since: w.clock.Now()})
	if st := w.e.Status(); st.PausedAll == nil || st.PausedAll.By != "tester" || st.Counts.Paused != 2 {
		t.Fatalf("status after PauseAll: %+v", st)
	}
	w.drift(world, "config", "tampered")
	if ev := w.next(func(ev *engine.Event) bool { return ev.ID() == "fake#config" }); !ev.Paused || !ev.Noop {
		t.Fatalf("a resource paused by PauseAll was changed: %+v", ev)
	}
	w.idle()
	if world.get("config") != "tampered" {
		t.Fatal("PauseAll did not keep ccm's hands off")
	}
	w.e.ResumeAll()
	if ev := w.next(changedEvent("fake#config")); ev.Trigger != engine.TriggerResume || world.get("config") != "good" {
		t.Fatalf("after ResumeAll: %+v, value %q", ev, world.get("config"))
	}
	if st := w.e.Status(); st.PausedAll != nil || st.Counts.Paused != 0 {
		t.Fatalf("status after ResumeAll: %+v", st)
	}
}

// TestRecheckResourceChecksOneResource: a re-check of one resource (by
// name or alias) checks it and nothing else; an unknown one is an error.
func TestRecheckResourceChecksOneResource(t *testing.T) {
	world := newWorld(t)
	g := load(t, `
- fake:
    - a: {value: "1", alias: first}
    - b: {value: "1"}
`)
	w := startWatching(t, g, engine.Options{Recheck: -1})
	w.next(changedEvent("fake#b"))
	w.idle()
	a, b := world.checked("a"), world.checked("b")
	world.set("a", "tampered")
	if err := w.e.RecheckResource("fake#first"); err != nil {
		t.Fatal(err)
	}
	if ev := w.next(changedEvent("fake#a")); ev.Trigger != engine.TriggerRecheck {
		t.Fatalf("re-check of a: %+v", ev)
	}
	w.idle()
	if world.checked("a") == a || world.checked("b") != b {
		t.Fatalf("checks of a %d → %d, of b %d → %d: want a only", a, world.checked("a"), b, world.checked("b"))
	}
	if err := w.e.RecheckResource("fake#nope"); err == nil {
		t.Fatal("an unknown resource was re-checked")
	}
}
