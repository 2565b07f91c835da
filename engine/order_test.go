package engine_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
)

func TestWrittenOrderIsTheDefaultOrder(t *testing.T) {
	cases := []struct {
		name, manifest string
		want           []string
	}{
		{"in the order written", `
- fake:
    - defaults: {sleep: 5ms}
    - a: {value: "1"}
    - b: {value: "1"}
    - c: {value: "1"}
`, []string{"a", "b", "c"}},
		{"a require of a later resource moves it earlier", `
- fake:
    - a: {value: "1", require: [fake#d]}
    - b: {value: "1"}
    - c: {value: "1"}
    - d: {value: "1"}
`, []string{"d", "a", "b", "c"}},
		{"across blocks and types of block", `
- fake:
    - a: {value: "1"}
- fake:
    name: b
    value: "1"
- fake:
    - c: {value: "1"}
`, []string{"a", "b", "c"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			sum, _ := runOnce(t, load(t, c.manifest), engine.Options{Workers: 8})
			if !slices.Equal(w.order(), c.want) {
				t.Fatalf("order = %v, want %v", w.order(), c.want)
			}
			if p := w.peak.Load(); p != 1 {
				t.Fatalf("%d applies ran at once; written order runs one at a time", p)
			}
			if !sum.OK() {
				t.Fatalf("summary = %+v", sum)
			}
		})
	}
}

func TestIndependentNeighboursRunAtOnceBetweenOthers(t *testing.T) {
	w := newWorld(t)
	g := load(t, `
- fake:
    - first: {value: "1"}
- fake:
    - defaults: {sleep: 30ms, independent: true}
    - a: {value: "1"}
    - b: {value: "1"}
    - c: {value: "1"}
- fake:
    - last: {value: "1"}
`)
	runOnce(t, g, engine.Options{Workers: 8})
	w.bracketed(t, "the independent run")
	if p := w.peak.Load(); p < 2 {
		t.Fatalf("at most %d applies ran at once; consecutive independent resources should overlap", p)
	}
}

func TestParallelManifestRunsOnlyByItsEdges(t *testing.T) {
	w := newWorld(t)
	g := load(t, `
ccm:
  parallel: true
  resources:
    - fake:
        - defaults: {sleep: 30ms}
        - a: {value: "1"}
        - b: {value: "1"}
        - c: {value: "1", require: [fake#a]}
`)
	runOnce(t, g, engine.Options{Workers: 8})
	if p := w.peak.Load(); p < 2 {
		t.Fatalf("at most %d applies ran at once; parallel: true runs the graph in parallel", p)
	}
	if order := w.order(); slices.Index(order, "c") < slices.Index(order, "a") {
		t.Fatalf("order = %v: require still orders c after a", order)
	}
}

func TestOrderNeverBlocks(t *testing.T) {
	w := newWorld(t)
	g := load(t, `
- fake:
    - broken: {value: "1", fail: true}
    - needs-broken: {value: "1", require: [fake#broken]}
    - after-both: {value: "1"}
`)
	sum, rec := runOnce(t, g, engine.Options{Workers: 8})
	evs := rec.byID()
	if ev := evs["fake#needs-broken"]; !ev.Skipped || len(ev.UnmetRequirements) != 1 {
		t.Fatalf("needs-broken: want blocked by its require, got %+v", ev)
	}
	if w.get("after-both") != "1" || !evs["fake#after-both"].Changed {
		t.Fatalf("after-both must run after a failure and a blocked resource it does not require: %+v", evs["fake#after-both"])
	}
	if sum.Failed != 1 || sum.Blocked != 1 || sum.Changed != 1 {
		t.Fatalf("summary = %+v", sum)
	}
}

func TestFailOnErrorStopsAtTheFirstFailure(t *testing.T) {
	w := newWorld(t)
	g := load(t, `
ccm:
  fail_on_error: true
  resources:
    - fake:
        - broken: {value: "1", fail: true}
        - next: {value: "1"}
        - later: {value: "1", require: [fake#first]}
        - first: {value: "1"}
`)
	sum, rec := runOnce(t, g, engine.Options{Workers: 8})
	if len(w.order()) != 0 {
		t.Fatalf("%v ran after a failure under fail_on_error", w.order())
	}
	for _, id := range []string{"fake#next", "fake#first", "fake#later"} {
		if ev := rec.byID()[id]; ev == nil || !ev.Skipped || !ev.Unchecked {
			t.Fatalf("%s must be reported skipped, unchecked; got %+v", id, ev)
		}
	}
	if sum.Failed != 1 || sum.Skipped != 3 || sum.OK() {
		t.Fatalf("summary = %+v", sum)
	}
}

func TestNoopFailureAfterAWouldBeChangeInWrittenOrderIsNotChecked(t *testing.T) {
	newWorld(t)
	g := load(t, `
- fake:
    - writer: {value: "1"}
    - between: {value: ""}
    - reader: {value: "1", fail: true}
`)
	sum, rec := runOnce(t, g, engine.Options{Noop: true})
	ev := rec.byID()["fake#reader"]
	if ev.Failed || !ev.Skipped || !ev.Unchecked {
		t.Fatalf("reader: a failure after a change noop did not make is not checked; got %+v", ev)
	}
	if !sum.OK() {
		t.Fatalf("summary = %+v", sum)
	}
}

func TestWatchOrderAppliesToWhatIsPendingTogether(t *testing.T) {
	world := newWorld(t)
	g := load(t, `
- fake:
    - defaults: {sleep: 5ms, watch: true}
    - a: {value: "1"}
    - b: {value: "1"}
    - c: {value: "1"}
`)
	w := startWatching(t, g, engine.Options{Workers: 8})
	w.next(changedEvent("fake#c"))
	for _, k := range []string{"a", "b", "c"} {
		world.set(k, "tampered")
	}
	before := len(world.order())
	w.e.Recheck()
	w.next(changedEvent("fake#c"))
	if got := world.order()[before:]; !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Fatalf("re-check applied %v, want the written order", got)
	}
	if p := world.peak.Load(); p != 1 {
		t.Fatalf("%d applies ran at once; what is pending together runs in written order", p)
	}
}

func TestWatchLoneRepairDoesNotWaitForAFailingPredecessor(t *testing.T) {
	world := newWorld(t)
	world.failing["a"] = true
	g := load(t, `
- fake:
    - a: {value: "1"}
    - b: {value: "1", watch: true}
`)
	// a retries only after an hour: it stays dirty, waiting on its back-off.
	w := startWatching(t, g, engine.Options{Retry: engine.RetryPolicy{Base: time.Hour, Max: time.Hour}})
	w.next(func(ev *engine.Event) bool { return ev.ID() == "fake#a" && ev.Failed })
	w.next(changedEvent("fake#b"))
	w.drift(world, "b", "tampered")
	if ev := w.next(changedEvent("fake#b")); ev.Trigger != engine.TriggerDrift {
		t.Fatalf("repair of b = %+v", ev)
	}
}

// TestFailOnErrorStartsNothingAfterAFailure holds fail_on_error whatever
// runs together: independent neighbours, commit groups, groupable
// resources and parallel manifests, on 1 to 8 workers.
func TestFailOnErrorStartsNothingAfterAFailure(t *testing.T) {
	written := map[string]string{
		"independent":  "{independent: true, value: \"1\"}",
		"commit group": "{independent: true, commit: true, value: \"1\"}",
	}
	for workers := 1; workers <= 8; workers++ {
		for name, defaults := range written {
			t.Run(fmt.Sprintf("%s/%d workers", name, workers), func(t *testing.T) {
				w := newWorld(t)
				g := load(t, "ccm:\n  fail_on_error: true\n  resources:\n    - fake:\n        - defaults: "+defaults+"\n"+fakes("        ", 12))
				sum, _ := runOnce(t, g, engine.Options{Workers: workers})
				if len(w.order()) != 0 || sum.Failed != 1 || sum.Skipped != 12 {
					t.Fatalf("applied %v after the first resource failed; summary %+v", w.order(), sum)
				}
			})
		}
		t.Run(fmt.Sprintf("group/%d workers", workers), func(t *testing.T) {
			w := newWorld(t)
			g := load(t, "ccm:\n  fail_on_error: true\n  resources:\n    - gfake:\n        - defaults: {key: k, value: \"1\"}\n"+fakes("        ", 12))
			runOnce(t, g, engine.Options{Workers: workers})
			if len(w.order()) != 0 {
				t.Fatalf("applied %v after the first resource failed", w.order())
			}
		})
		t.Run(fmt.Sprintf("parallel/%d workers", workers), func(t *testing.T) {
			failParallel(t, workers)
		})
	}
}

// failParallel runs a parallel manifest whose first resource fails. Each
// other resource's check waits until the failure is reported, so each
// worker but the failing one's takes at most one resource before it (its
// first check; the check after its apply waits for nothing):
// any more started means a worker took one after the failure.
func failParallel(t *testing.T, workers int) {
	w := newWorld(t)
	release := make(chan struct{})
	var mu sync.Mutex
	started := map[string]bool{}
	w.checking = func(name string) {
		mu.Lock()
		first := name != "broken" && !started[name]
		started[name] = true
		mu.Unlock()
		if first {
			<-release
		}
	}
	g := load(t, "ccm:\n  fail_on_error: true\n  parallel: true\n  resources:\n    - fake:\n        - defaults: {value: \"1\"}\n"+fakes("        ", 40))
	opts := engine.Options{Workers: workers, Events: func(ev *engine.Event) {
		if ev.Failed {
			close(release)
		}
	}}
	sum, err := engine.New(g, opts).Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if n := len(started) - 1; n > workers-1 {
		t.Fatalf("%d resources started beside the failing one on %d workers: some started after the failure", n, workers)
	}
	if sum.Failed != 1 || sum.Skipped != 41-len(started) {
		t.Fatalf("summary %+v", sum)
	}
}

// fakes lists a failing fake, then n fakes, as named entries.
func fakes(indent string, n int) string {
	s := indent + "- broken: {fail: true}\n"
	for i := range n {
		s += fmt.Sprintf("%s- f%02d: {}\n", indent, i)
	}
	return s
}
