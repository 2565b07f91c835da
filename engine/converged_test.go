package engine_test

import (
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
)

// TestLastConvergedIsWhenEveryResourceLastStoodConverged: by the
// engine's clock, moved only when every resource converged again; the
// status report says the same.
func TestLastConvergedIsWhenEveryResourceLastStoodConverged(t *testing.T) {
	world := newWorld(t)
	w := startWatching(t, load(t, "- fake:\n    - a: {value: \"1\", watch: true}\n    - b: {value: \"1\"}\n"), engine.Options{Recheck: -1, HealthInterval: -1})
	w.next(func(ev *engine.Event) bool { return ev.ID() == "fake#b" })
	w.idle()
	start := w.clock.Now()
	if got := w.e.LastConverged(); !got.Equal(start) {
		t.Fatalf("after the first convergence LastConverged = %s, want %s", got, start)
	}

	w.advance(time.Hour)
	world.mu.Lock()
	world.failing["a"] = true
	world.mu.Unlock()
	w.src.fire("/fake/a")
	w.next(func(ev *engine.Event) bool { return ev.ID() == "fake#a" && ev.Failed })
	w.idle()
	if got := w.e.LastConverged(); !got.Equal(start) {
		t.Fatalf("while a fails LastConverged = %s, want it left at %s", got, start)
	}

	world.mu.Lock()
	delete(world.failing, "a")
	world.mu.Unlock()
	w.advance(time.Hour)
	if st := w.e.State(); st.Converged != 2 {
		t.Fatalf("state %+v, want both converged again", st)
	}
	now := w.clock.Now()
	if got := w.e.LastConverged(); !got.Equal(now) {
		t.Fatalf("after recovering LastConverged = %s, want %s", got, now)
	}
	if got := w.e.Status().Daemon.LastConverged; !got.Equal(now) {
		t.Fatalf("the status report says %s, want %s", got, now)
	}
}
