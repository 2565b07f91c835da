package engine_test

import (
	"slices"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/status"
)

// agree fails unless State, which counts vertices as they change, agrees
// with Status, which looks at every vertex.
func (w *watching) agree(step string) {
	w.t.Helper()
	w.idle()
	st, rep := w.e.State(), w.e.Status()
	if st.Counts != rep.Counts {
		w.t.Fatalf("%s: state counts %+v, status counts %+v", step, st.Counts, rep.Counts)
	}
	var failed, contested []string
	for _, r := range rep.Resources {
		switch r.Standing {
		case status.Failed, status.Unhealthy:
			failed = append(failed, r.ID)
		case status.Contested:
			contested = append(contested, r.ID)
		}
	}
	if !slices.Equal(st.FailedIDs, failed) || !slices.Equal(st.ContestedIDs, contested) {
		w.t.Fatalf("%s: state names failed %v and contested %v, status %v and %v", step, st.FailedIDs, st.ContestedIDs, failed, contested)
	}
}

func TestStateFollowsEveryChangeOfStanding(t *testing.T) {
	w, world := fight(t, fought+`    - flaky: {value: "1"}
    - child: {value: "1", require: [fake#flaky]}
    - other: {value: "1"}
`, engine.Options{Contest: policy, Retry: engine.RetryPolicy{Base: time.Second, Max: time.Second}})
	w.agree("converged")

	world.mu.Lock()
	world.failing["flaky"] = true
	world.mu.Unlock()
	w.e.Recheck()
	w.agree("a failure blocking its child")
	world.mu.Lock()
	world.failing["flaky"] = false
	world.mu.Unlock()
	w.advance(2 * time.Second)
	w.agree("recovered")

	if err := w.e.Pause([]string{"fake#other"}, status.Pause{By: "test", Until: w.clock.Now().Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
	w.agree("paused")
	// Not watched: the fake's echo of a noop apply would be drift again.
	world.set("other", "drifted")
	w.e.Recheck()
	w.agree("drift while paused")
	w.advance(2 * time.Minute)
	w.agree("the pause ended")

	for range policy.Limit + 1 {
		w.advance(quick)
		w.strike(world)
	}
	w.agree("contested")
	// Checked again after the back-off (30s, jittered by a fifth), then
	// calm a window after the last repair, when the timer finds it so.
	w.advance(policy.Backoff * 3 / 2)
	w.agree("contested, checked again")
	w.advance(policy.Window)
	w.agree("calm again")
}
