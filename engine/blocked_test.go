package engine_test

import (
	"testing"

	"github.com/reactive-ccm/ccm/engine"
)

// TestQueuedChildOfAFailureIsBlocked: a child already queued, waiting for
// a worker, when its parent fails is reported blocked and not run: a
// vertex runs only when every parent is clean and converged.
func TestQueuedChildOfAFailureIsBlocked(t *testing.T) {
	world := newWorld(t)
	for _, n := range []string{"parent", "child", "gate"} {
		world.set(n, "1")
	}
	g := load(t, `
- fake:
    - parent: {value: "1", watch: true}
    - child: {value: "1", watch: true, require: [fake#parent]}
    - gate: {value: "1", watch: true}
`)
	w := startWatching(t, g, engine.Options{Workers: 1})
	w.idle()
	entered, release := make(chan struct{}), make(chan struct{})
	world.mu.Lock()
	world.checking = func(name string) {
		if name == "gate" {
			close(entered)
			<-release
		}
	}
	world.mu.Unlock()
	// The one worker checks gate while child, then its parent, are
	// marked: both wait in the queue, parent first.
	w.src.fire("/fake/gate")
	<-entered
	w.src.fire("/fake/child")
	world.mu.Lock()
	world.failing["parent"] = true
	world.mu.Unlock()
	w.src.fire("/fake/parent")
	checks := world.checked("child")
	close(release)
	ev := w.next(func(ev *engine.Event) bool { return ev.ID() == "fake#child" && ev.Trigger != engine.TriggerStartup })
	if !ev.Skipped || len(ev.UnmetRequirements) != 1 || ev.UnmetRequirements[0] != "fake#parent" {
		t.Fatalf("child's event: %+v, want blocked by fake#parent", ev)
	}
	w.idle()
	if got := world.checked("child"); got != checks {
		t.Fatalf("child was checked %d more times under its failed parent", got-checks)
	}
}
