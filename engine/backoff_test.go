package engine_test

import (
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
)

// backoffPolicy is the default first step with a cap far enough away
// that the back-off keeps doubling through a test.
var backoffPolicy = engine.RetryPolicy{Base: time.Second, Max: 24 * time.Hour}

// failingVertex watches fake#flaky, which fails until told otherwise.
type failingVertex struct {
	*watching
	world *world
	// checks is how many checks one attempt makes.
	checks int
}

// startFailing runs fake#flaky failing and lets it fail failures times in
// all, each retry at its scheduled deadline, so its back-off is then
// Base<<(failures-1), jittered.
func startFailing(t *testing.T, failures int) *failingVertex {
	t.Helper()
	world := newWorld(t)
	world.failing["flaky"] = true
	return startBackoff(t, world, "{value: \"1\", watch: true, poll: 1m}", 1, engine.Options{}, failures)
}

// startBackoff runs fake#flaky with props, which must fail after checks
// checks each attempt, as startFailing does.
func startBackoff(t *testing.T, world *world, props string, checks int, opts engine.Options, failures int) *failingVertex {
	t.Helper()
	g := load(t, "- fake:\n    - flaky: "+props+"\n")
	opts.Retry = backoffPolicy
	f := &failingVertex{watching: startWatching(t, g, opts), world: world, checks: checks}
	f.next(func(ev *engine.Event) bool { return ev.ID() == "fake#flaky" && ev.Failed })
	f.idle()
	for range failures - 1 {
		f.attemptAt(f.nextRetry())
	}
	return f
}

// nextRetry returns when fake#flaky is to run again, as status reports.
func (f *failingVertex) nextRetry() time.Time {
	f.t.Helper()
	for _, r := range f.e.Status().Resources {
		if r.ID == "fake#flaky" && r.NextRetry != nil {
			return *r.NextRetry
		}
	}
	f.t.Fatalf("fake#flaky has no retry scheduled: %+v", f.e.Status().Resources)
	return time.Time{}
}

// attemptAt moves the time to at, checking that fake#flaky makes no
// attempt before it and exactly one at it.
func (f *failingVertex) attemptAt(at time.Time) {
	f.t.Helper()
	before := f.world.checked("flaky")
	if d := at.Sub(f.clock.Now()) - time.Millisecond; d > 0 {
		f.advance(d)
	}
	if got := f.world.checked("flaky"); got != before {
		f.t.Fatalf("%d attempts before %s, want none", got-before, at.Format(time.TimeOnly+".000"))
	}
	f.advance(at.Sub(f.clock.Now()))
	if got := f.world.checked("flaky"); got != before+f.checks {
		f.t.Fatalf("%d checks at %s, want one attempt of %d", got-before, at.Format(time.TimeOnly+".000"), f.checks)
	}
}

// drift fires n events for fake#flaky and waits for the engine to take
// them in.
func (f *failingVertex) drift(n int) {
	for range n {
		f.src.fire("/fake/flaky")
	}
	f.idle()
}

// backoff is how long after now fake#flaky waits for its next attempt.
func (f *failingVertex) backoff() time.Duration { return f.nextRetry().Sub(f.clock.Now()) }

// atLeast fails unless d is at least the shortest jittered back-off after
// the failures-th failure in a row.
func atLeast(t *testing.T, d time.Duration, failures int) {
	t.Helper()
	if lowest := backoffPolicy.Base << (failures - 1) * 4 / 5; d < lowest {
		t.Fatalf("back-off after %d failures in a row is %s, want at least %s", failures, d, lowest)
	}
}

// TestRetryBackoffAndEvents is issue 22's "every drift is repaired at
// once" for a resource that failed: an event during its back-off brings
// its next attempt to the first step after its last, never sooner, and
// never resets the back-off, which only a success does.
func TestRetryBackoffAndEvents(t *testing.T) {
	t.Run("an event brings the next attempt to the first step after the last", func(t *testing.T) {
		f := startFailing(t, 5)
		last := f.clock.Now()
		atLeast(t, f.backoff(), 5)
		f.drift(1)
		if got, want := f.nextRetry(), last.Add(backoffPolicy.Base); !got.Equal(want) {
			t.Fatalf("next attempt after an event at %s, want %s", got, want)
		}
		f.attemptAt(last.Add(backoffPolicy.Base))
	})
	t.Run("an event long after the last attempt brings it on at once", func(t *testing.T) {
		f := startFailing(t, 5)
		f.advance(3 * backoffPolicy.Base)
		before := f.world.checked("flaky")
		f.drift(1)
		if got := f.world.checked("flaky"); got != before+1 {
			t.Fatalf("%d attempts after an event 3s after the last, want 1", got-before)
		}
	})
	t.Run("an event during a failing check counts once it failed", func(t *testing.T) {
		f := startFailing(t, 5)
		f.world.mu.Lock()
		f.world.checking = func(string) { f.src.fire("/fake/flaky") }
		f.world.mu.Unlock()
		at := f.nextRetry()
		f.attemptAt(at)
		f.world.mu.Lock()
		f.world.checking = nil
		f.world.mu.Unlock()
		f.attemptAt(at.Add(backoffPolicy.Base))
	})
	t.Run("bursts of events never loop faster than the first step", func(t *testing.T) {
		f := startFailing(t, 5)
		for range 5 {
			next := f.clock.Now().Add(backoffPolicy.Base)
			f.drift(10)
			f.advance(backoffPolicy.Base / 2)
			f.drift(10)
			f.attemptAt(next)
		}
	})
	t.Run("a persistent failure keeps growing its back-off despite events", func(t *testing.T) {
		f := startFailing(t, 3)
		for range 6 {
			f.drift(1)
			f.attemptAt(f.clock.Now().Add(backoffPolicy.Base))
		}
		atLeast(t, f.backoff(), 9)
		f.attemptAt(f.nextRetry())
		atLeast(t, f.backoff(), 10)
	})
	t.Run("an event during a failing apply is no event", func(t *testing.T) {
		// The apply's own echo, as a service whose start fails sends, or a
		// write the check after it finds undone, as on a file system that
		// ignores chmod: each run writes, fires an event, and fails.
		for name, flush := range map[string]func(){"source without flush": nil, "source with flush": func() {}} {
			t.Run(name, func(t *testing.T) {
				world := newWorld(t)
				f := startBackoff(t, world, "{value: \"1\", watch: true, stuck: true}", 2, engine.Options{Watchers: engine.Watchers{Flush: flush}}, 1)
				world.mu.Lock()
				world.applied = func(string) { f.src.fire("/fake/flaky") }
				world.mu.Unlock()
				for range 4 {
					f.attemptAt(f.nextRetry())
				}
				atLeast(t, f.backoff(), 5)
			})
		}
	})
	t.Run("a poll is no event", func(t *testing.T) {
		f := startFailing(t, 5)
		want := f.nextRetry()
		f.src.fire("poll:1m0s")
		f.idle()
		if got := f.nextRetry(); !got.Equal(want) {
			t.Fatalf("next attempt after a poll at %s, want %s as scheduled", got, want)
		}
	})
	t.Run("a success resets the back-off", func(t *testing.T) {
		f := startFailing(t, 5)
		f.world.mu.Lock()
		f.world.failing["flaky"] = false
		f.world.mu.Unlock()
		f.advance(f.backoff())
		f.next(changedEvent("fake#flaky"))
		f.world.mu.Lock()
		f.world.failing["flaky"] = true
		f.world.mu.Unlock()
		f.drift(1)
		f.next(func(ev *engine.Event) bool { return ev.ID() == "fake#flaky" && ev.Failed })
		if d := f.backoff(); d > backoffPolicy.Base*6/5 {
			t.Fatalf("back-off after a success and one failure is %s, want at most %s", d, backoffPolicy.Base*6/5)
		}
	})
}
