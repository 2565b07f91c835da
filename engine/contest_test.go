package engine_test

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
)

// policy is the default contest policy, spelled out.
var policy = engine.ContestPolicy{Window: time.Minute, Limit: 5, Gap: engine.DefaultContestGap, Backoff: 30 * time.Second, MaxBackoff: 10 * time.Minute}

// quick is how often a fighting writer strikes in these tests: within the
// policy's gap, so that its repairs are one episode.
const quick = 500 * time.Millisecond

// applies counts the applies of name so far.
func (w *world) appliesOf(name string) int {
	n := 0
	for _, a := range w.order() {
		if a == name {
			n++
		}
	}
	return n
}

func (w *world) refreshed(name string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.refreshes[name]
}

// fight starts a watching engine on manifest whose resource "fought" is
// watched, with the echo of ccm's own writes delivered like inotify does.
func fight(t *testing.T, manifest string, opts engine.Options) (*watching, *world) {
	t.Helper()
	world := newWorld(t)
	world.set("reload", "x")
	world.set("notify", "y")
	w := startWatching(t, load(t, manifest), opts)
	w.next(changedEvent("fake#fought"))
	world.mu.Lock()
	world.applied = func(name string) { w.src.fire("/fake/" + name) }
	world.mu.Unlock()
	w.idle()
	for len(w.events) > 0 {
		<-w.events
	}
	return w, world
}

// strike is the other writer changing the fought resource.
func (w *watching) strike(world *world) {
	w.drift(world, "fought", "theirs")
	w.idle()
}

const fought = "- fake:\n    - fought: {value: \"ours\", watch: true}\n"

func TestWriterIsContestedDespiteTheEchoOfOurWrites(t *testing.T) {
	w, world := fight(t, fought, engine.Options{Contest: policy})
	for i := 1; i <= policy.Limit+1; i++ {
		w.advance(quick)
		w.strike(world)
		ev := w.next(changedEvent("fake#fought"))
		if ev.Contested != (i == policy.Limit+1) {
			t.Fatalf("repair %d: contested = %v; want it reported at repair %d, once", i, ev.Contested, policy.Limit+1)
		}
	}
	if st := w.e.State(); st.Contested != 1 {
		t.Fatalf("state %+v, want one contested resource", st)
	}
	// Backed off: the next strike is repaired only after the back-off.
	before := world.appliesOf("fought")
	w.strike(world)
	w.advance(policy.Backoff / 2)
	if got := world.appliesOf("fought"); got != before {
		t.Fatalf("repaired %d times during the back-off", got-before)
	}
	w.advance(policy.Backoff)
	if got := world.appliesOf("fought"); got != before+1 {
		t.Fatalf("%d repairs after the back-off, want 1", got-before)
	}
}

func TestRepairUndoneBeforeItsRecheckCounts(t *testing.T) {
	w, world := fight(t, fought, engine.Options{Contest: policy, Retry: engine.RetryPolicy{Base: time.Second, Max: 5 * time.Minute}})
	world.mu.Lock()
	world.undo["fought"] = "theirs"
	world.mu.Unlock()
	w.strike(world)
	var contested bool
	perMinute := make([]int, 10)
	for m := range perMinute {
		before := world.appliesOf("fought")
		for range 60 {
			w.advance(time.Second)
			for len(w.events) > 0 {
				contested = contested || (<-w.events).Contested
			}
		}
		perMinute[m] = world.appliesOf("fought") - before
	}
	if !contested {
		t.Fatalf("never reported contested; repairs per minute %v", perMinute)
	}
	if perMinute[0] > policy.Limit+2 {
		t.Errorf("%d repairs in the first minute, want at most %d", perMinute[0], policy.Limit+2)
	}
	for m, n := range perMinute[1:] {
		if n > 2 {
			t.Errorf("minute %d: %d repairs while contested, want at most 2; per minute %v", m+2, n, perMinute)
		}
	}
}

func TestContestedRefreshesAreHeldUntilCalm(t *testing.T) {
	w, world := fight(t, `
- fake:
    - fought: {value: "ours", watch: true}
    - reload: {value: "x", subscribe: [fake#fought]}
    - notify: {value: "y", subscribe: [fake#reload]}
`, engine.Options{Contest: policy})
	start := world.refreshed("reload")
	for range 240 { // a writer every 500ms for two minutes
		w.advance(quick)
		w.strike(world)
	}
	during := world.refreshed("reload") - start
	if during > policy.Limit {
		t.Fatalf("the subscriber was refreshed %d times during the fight, want at most %d (then held)", during, policy.Limit)
	}
	if st := w.e.State(); st.Contested != 1 {
		t.Fatalf("state %+v, want fought contested", st)
	}
	// The writer stops; the back-off runs out, a check repairs once more,
	// then calm releases the held refresh, once, down the chain.
	w.advance(policy.MaxBackoff)
	w.advance(policy.MaxBackoff)
	if st := w.e.State(); st.Contested != 0 {
		t.Fatalf("state %+v, want calm after %s alone", st, 2*policy.MaxBackoff)
	}
	if got := world.refreshed("reload") - start; got != during+1 {
		t.Fatalf("reload refreshed %d times after calm, want the held refresh once (%d)", got, during+1)
	}
	if got, want := world.refreshed("notify"), world.refreshed("reload"); got != want {
		t.Fatalf("notify refreshed %d times, want %d: the chain goes on from reload", got, want)
	}
}

// lineCounter counts log records at Info and above.
type lineCounter struct {
	mu sync.Mutex
	n  int
}

func (c *lineCounter) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelInfo }
func (c *lineCounter) Handle(context.Context, slog.Record) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	return nil
}
func (c *lineCounter) WithAttrs([]slog.Attr) slog.Handler { return c }
func (c *lineCounter) WithGroup(string) slog.Handler      { return c }
func (c *lineCounter) lines() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

func TestAContestedResourceLogsAFewLinesAMinute(t *testing.T) {
	logs := &lineCounter{}
	w, world := fight(t, fought, engine.Options{Contest: policy, Logger: slog.New(logs)})
	lines := make([]int, 5)
	for m := range lines {
		before := logs.lines()
		for range 600 { // a writer every 100ms
			w.advance(100 * time.Millisecond)
			w.drift(world, "fought", "theirs")
			for len(w.events) > 0 {
				<-w.events
				lines[m]++
			}
		}
		lines[m] += logs.lines() - before
	}
	if lines[0] > 2*(policy.Limit+2) {
		t.Errorf("%d lines in the first minute; per minute %v", lines[0], lines)
	}
	for m, n := range lines[1:] {
		if n > 4 {
			t.Errorf("minute %d: %d event and log lines, want a few; per minute %v", m+2, n, lines)
		}
	}
}
