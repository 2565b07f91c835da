package engine_test

import (
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
)

func TestAHungCheckTimesOutAndBlocksOnlyItsDependents(t *testing.T) {
	w := newWorld(t)
	g := load(t, `
- fake:
    - hung: {value: "1", hang: true}
    - after: {value: "1", require: [fake#hung]}
    - other: {value: "1"}
`)
	sum, rec := runOnce(t, g, engine.Options{Timeouts: map[string]time.Duration{"fake": 20 * time.Millisecond}})
	ev := rec.byID()["fake#hung"]
	if !ev.Failed || len(ev.Error) != 1 {
		t.Fatalf("hung: %+v, want a failure", ev)
	}
	for _, want := range []string{"timed out", "the check did not finish within 20ms", "--timeout fake"} {
		if !strings.Contains(ev.Error[0], want) {
			t.Errorf("error %q does not say %q", ev.Error[0], want)
		}
	}
	if w.get("other") != "1" || !rec.byID()["fake#after"].Skipped || sum.Failed != 1 {
		t.Fatalf("the hung resource held more than its dependents: %+v", sum)
	}
}

func TestAHungCheckIsRetriedWithBackoffInWatchMode(t *testing.T) {
	world := newWorld(t)
	g := load(t, "- fake:\n    - hung: {value: \"1\", hang: true}\n")
	retry := engine.RetryPolicy{Base: time.Second, Max: time.Minute}
	w := startWatching(t, g, engine.Options{Retry: retry, Timeouts: map[string]time.Duration{"fake": 10 * time.Millisecond}})
	ev := w.next(func(ev *engine.Event) bool { return ev.ID() == "fake#hung" })
	if !ev.Failed || !strings.Contains(ev.Error[0], "timed out") {
		t.Fatalf("first check: %+v", ev)
	}
	w.idle()
	if st := w.e.State(); st.Failed != 1 {
		t.Fatalf("state %+v, want the hung resource failed and waiting for its retry", st)
	}
	// Each retry times out the same way: not reported again, still retried.
	for range 3 {
		w.advance(retry.Max)
	}
	if got := world.checked("hung"); got != 4 {
		t.Fatalf("%d checks, want the first and three retries", got)
	}
	w.none("a timeout repeating the same way was reported again", func(ev *engine.Event) bool { return ev.Failed })
}
