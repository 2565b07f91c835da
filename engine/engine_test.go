package engine_test

import (
	"slices"
	"testing"

	"github.com/reactive-ccm/ccm/engine"
)

func TestParentsConvergeBeforeChildren(t *testing.T) {
	w := newWorld(t)
	g := load(t, `
- fake:
    - defaults: {sleep: 10ms}
    - child: {value: "1", require: [fake#parent]}
    - parent: {value: "1"}
    - grandchild: {value: "1", require: [fake#child]}
`)
	runOnce(t, g, engine.Options{Workers: 8})
	if want := []string{"parent", "child", "grandchild"}; !slices.Equal(w.order(), want) {
		t.Fatalf("order = %v, want %v", w.order(), want)
	}
}

func TestFailureBlocksDependentsAndNotOthers(t *testing.T) {
	w := newWorld(t)
	g := load(t, `
- fake:
    - broken: {value: "1", fail: true}
    - child: {value: "1", require: [fake#broken]}
    - grandchild: {value: "1", require: [fake#child]}
    - other: {value: "1"}
`)
	sum, rec := runOnce(t, g, engine.Options{})
	evs := rec.byID()
	if !evs["fake#broken"].Failed {
		t.Fatalf("broken not reported failed: %+v", evs["fake#broken"])
	}
	for _, id := range []string{"fake#child", "fake#grandchild"} {
		if ev := evs[id]; !ev.Skipped || len(ev.UnmetRequirements) != 1 {
			t.Fatalf("%s: want skipped with unmet requirements, got %+v", id, ev)
		}
	}
	if w.get("child") != "" || w.get("other") != "1" {
		t.Fatalf("child must not run, other must: %v", w.values)
	}
	if sum.OK() || sum.Failed != 1 || sum.Blocked != 2 || sum.Changed != 1 {
		t.Fatalf("summary = %+v", sum)
	}
}

func TestSubscribeRefreshesOnlyWhenTheParentChanged(t *testing.T) {
	w := newWorld(t)
	w.set("stable", "1")
	g := load(t, `
- fake:
    - changing: {value: "1"}
    - stable: {value: "1"}
    - on-change: {value: "x", subscribe: [fake#changing]}
    - on-stable: {value: "x", subscribe: [fake#stable]}
`)
	w.set("on-change", "x")
	w.set("on-stable", "x")
	_, rec := runOnce(t, g, engine.Options{})
	if w.refreshes["on-change"] != 1 || w.refreshes["on-stable"] != 0 {
		t.Fatalf("refreshes = %v", w.refreshes)
	}
	if ev := rec.byID()["fake#on-change"]; !ev.Refreshed || ev.Trigger != engine.TriggerStartup {
		t.Fatalf("on-change event = %+v", ev)
	}
}

func TestNoopChangesNothingAndReportsWouldHave(t *testing.T) {
	w := newWorld(t)
	g := load(t, `
- fake:
    - a: {value: "1"}
    - b: {value: "x", subscribe: [fake#a]}
`)
	w.set("b", "x")
	sum, rec := runOnce(t, g, engine.Options{Noop: true})
	if len(w.order()) != 0 || w.get("a") != "" {
		t.Fatalf("noop changed the world: %v", w.values)
	}
	a := rec.byID()["fake#a"]
	if !a.Noop || !a.Changed || a.NoopMessage != "Would have set 1" {
		t.Fatalf("event = %+v", a)
	}
	if b := rec.byID()["fake#b"]; !b.Refreshed {
		t.Fatalf("a noop change shows its subscriber would be refreshed: %+v", b)
	}
	if sum.WouldChange != 2 || sum.Changed != 0 || !sum.OK() {
		t.Fatalf("summary = %+v", sum)
	}
}

func TestStillWrongAfterApplyIsDesiredStateFailed(t *testing.T) {
	newWorld(t)
	g := load(t, `
- fake:
    - stuck: {value: "1", stuck: true}
`)
	sum, rec := runOnce(t, g, engine.Options{})
	ev := rec.byID()["fake#stuck"]
	if !ev.Failed || len(ev.Error) != 1 || ev.Error[0] != `failed to reach desired state: value "" → 1` {
		t.Fatalf("event = %+v", ev)
	}
	if sum.Failed != 1 {
		t.Fatalf("summary = %+v", sum)
	}
}

func TestNoopFailureBelowAWouldBeChangeIsNotAFailure(t *testing.T) {
	newWorld(t)
	g := load(t, `
- fake:
    - archive: {value: "1"}
    - unpacked: {value: "1", fail: true, require: [fake#archive]}
`)
	sum, rec := runOnce(t, g, engine.Options{Noop: true})
	ev := rec.byID()["fake#unpacked"]
	if ev.Failed || !ev.Skipped || len(ev.Error) != 1 {
		t.Fatalf("event = %+v", ev)
	}
	if !sum.OK() || sum.Skipped != 1 {
		t.Fatalf("summary = %+v", sum)
	}
}
