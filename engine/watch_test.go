package engine_test

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/watchers/clock"
)

// notifier is a hand-driven event source standing in for inotify.
type notifier struct {
	mu   sync.Mutex
	subs map[string][]func()
}

func (n *notifier) watch(path string, fn, _ func()) func() {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.subs == nil {
		n.subs = map[string][]func(){}
	}
	n.subs[path] = append(n.subs[path], fn)
	return func() {
		n.mu.Lock()
		defer n.mu.Unlock()
		delete(n.subs, path)
	}
}

func (n *notifier) fire(path string) {
	n.mu.Lock()
	fns := append([]func(){}, n.subs[path]...)
	n.mu.Unlock()
	for _, fn := range fns {
		fn()
	}
}

func (n *notifier) watched(path string) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.subs[path]) > 0
}

// watching runs a watch-mode engine on g, on a fake clock, until the test
// ends.
type watching struct {
	t      *testing.T
	e      *engine.Engine
	events chan *engine.Event
	src    *notifier
	clock  *clock.Fake
	done   chan struct{}
	cancel context.CancelFunc
}

func startWatching(t *testing.T, g *graph.Graph, opts engine.Options) *watching {
	t.Helper()
	w := &watching{t: t, events: make(chan *engine.Event, 1000), src: &notifier{}, done: make(chan struct{}),
		clock: clock.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))}
	opts.Watch = true
	opts.Clock = w.clock
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	opts.Events = func(ev *engine.Event) { w.events <- ev }
	// Periodic work is fired by hand: a poll every d is the path "poll:d".
	opts.Watchers = engine.Watchers{Paths: w.src.watch, Poll: func(d time.Duration, fn func()) func() {
		return w.src.watch("poll:"+d.String(), fn, nil)
	}, Mounts: opts.Watchers.Mounts, Writers: opts.Watchers.Writers, Flush: opts.Watchers.Flush}
	w.e = engine.New(g, opts)
	ctx, cancel := context.WithCancel(t.Context())
	w.cancel = cancel
	go func() {
		defer close(w.done)
		if _, err := w.e.Run(ctx); err != nil && ctx.Err() == nil {
			t.Errorf("run: %v", err)
		}
	}()
	t.Cleanup(w.stop)
	return w
}

// stop ends the engine and waits until it returned.
func (w *watching) stop() {
	w.cancel()
	<-w.done
}

// advance moves the fake time by d and waits until the engine has run
// everything that became due.
func (w *watching) advance(d time.Duration) {
	w.t.Helper()
	w.clock.Advance(d)
	// The timer loop wakes the due vertices after answering a ping, so the
	// second ping is answered once the first round has woken them.
	for range 2 {
		if err := w.e.Ping(w.t.Context()); err != nil {
			w.t.Fatal(err)
		}
	}
	w.idle()
}

// idle waits until the engine has nothing to do until time moves.
func (w *watching) idle() {
	w.t.Helper()
	if err := w.e.WaitIdle(w.t.Context()); err != nil {
		w.t.Fatal(err)
	}
}

// none fails the test if an event matching keep was emitted and not yet
// read; callers wait for idle first.
func (w *watching) none(what string, keep func(*engine.Event) bool) {
	w.t.Helper()
	for {
		select {
		case ev := <-w.events:
			if keep(ev) {
				w.t.Fatalf("%s: %+v", what, ev)
			}
		default:
			return
		}
	}
}

// next waits for the next event matching keep.
func (w *watching) next(keep func(*engine.Event) bool) *engine.Event {
	w.t.Helper()
	timeout := time.After(time.Minute)
	for {
		select {
		case ev := <-w.events:
			if keep(ev) {
				return ev
			}
		case <-timeout:
			w.t.Fatalf("timed out waiting for an event; engine state %+v", w.e.State())
			return nil
		}
	}
}

// drift sets name's value behind the engine's back, as another program
// would, and tells the engine that its path changed.
func (w *watching) drift(world *world, name, value string) {
	world.set(name, value)
	w.src.fire("/fake/" + name)
}

func changedEvent(id string) func(*engine.Event) bool {
	return func(ev *engine.Event) bool { return ev.ID() == id && ev.Changed }
}

func TestWatchRepairsDriftAndRefreshesSubscribers(t *testing.T) {
	world := newWorld(t)
	g := load(t, `
- fake:
    - config: {value: "good", watch: true}
    - restart: {value: "up", subscribe: [fake#config]}
`)
	w := startWatching(t, g, engine.Options{})
	w.next(changedEvent("fake#restart"))
	world.mu.Lock()
	before := world.refreshes["restart"]
	world.mu.Unlock()

	w.drift(world, "config", "tampered")
	ev := w.next(changedEvent("fake#config"))
	if ev.Trigger != engine.TriggerDrift || world.get("config") != "good" {
		t.Fatalf("drift not repaired: %+v, value %q", ev, world.get("config"))
	}
	ev = w.next(changedEvent("fake#restart"))
	if !ev.Refreshed || ev.Trigger != engine.TriggerRefresh {
		t.Fatalf("subscriber event = %+v", ev)
	}
	world.mu.Lock()
	defer world.mu.Unlock()
	if world.refreshes["restart"] != before+1 {
		t.Fatalf("refreshes = %d, want %d", world.refreshes["restart"], before+1)
	}
}

// TestWatchRoutesMountPoints: a mount point goes to the mount source,
// whose notification is drift; without one it is polled.
func TestWatchRoutesMountPoints(t *testing.T) {
	t.Run("to the mount source", func(t *testing.T) {
		world := newWorld(t)
		mounts := &notifier{}
		w := startWatching(t, load(t, "- fake:\n    - data: {value: mounted, mount: true}\n"),
			engine.Options{Watchers: engine.Watchers{Mounts: func(p string, fn func()) func() { return mounts.watch(p, fn, nil) }}})
		w.next(changedEvent("fake#data"))
		world.set("data", "unmounted")
		mounts.fire("/fake/mount/data")
		if ev := w.next(changedEvent("fake#data")); ev.Trigger != engine.TriggerDrift || world.get("data") != "mounted" {
			t.Fatalf("repair %+v, value %q", ev, world.get("data"))
		}
	})
	t.Run("polled without one", func(t *testing.T) {
		world := newWorld(t)
		w := startWatching(t, load(t, "- fake:\n    - data: {value: mounted, mount: true}\n"), engine.Options{PollInterval: time.Minute})
		w.next(changedEvent("fake#data"))
		world.set("data", "unmounted")
		w.src.fire("poll:1m0s")
		if ev := w.next(changedEvent("fake#data")); ev.Trigger != engine.TriggerPoll {
			t.Fatalf("repair %+v, want a poll", ev)
		}
	})
}

// TestWatchedInputIsANewDesiredState: a change to a file the desired state
// is read from (a file's source) runs the resource as a new desired state,
// trigger source, not as drift.
func TestWatchedInputIsANewDesiredState(t *testing.T) {
	world := newWorld(t)
	g := load(t, `
- fake:
    - config: {value: "good", watch: true, input: true}
`)
	w := startWatching(t, g, engine.Options{})
	w.next(changedEvent("fake#config"))
	world.set("config", "old")
	w.src.fire("/fake/input/config")
	if ev := w.next(changedEvent("fake#config")); ev.Trigger != engine.TriggerSource {
		t.Fatalf("after an input changed: %+v, want trigger source", ev)
	}
	w.drift(world, "config", "tampered")
	if ev := w.next(changedEvent("fake#config")); ev.Trigger != engine.TriggerDrift {
		t.Fatalf("after the path changed: %+v, want trigger drift", ev)
	}
}

func TestWatchRetriesFailuresForeverAndReportsChangesOnce(t *testing.T) {
	world := newWorld(t)
	world.failing["flaky"] = true
	g := load(t, `
- fake:
    - flaky: {value: "1"}
    - child: {value: "1", require: [fake#flaky]}
`)
	retry := engine.RetryPolicy{Base: time.Second, Max: 4 * time.Second}
	w := startWatching(t, g, engine.Options{Retry: retry})
	w.next(func(ev *engine.Event) bool { return ev.ID() == "fake#flaky" && ev.Failed })
	if ev := w.next(func(ev *engine.Event) bool { return ev.ID() == "fake#child" }); !ev.Skipped {
		t.Fatalf("child must be reported blocked: %+v", ev)
	}
	w.idle()
	for i := range 4 {
		before := world.checked("flaky")
		// Past the longest jittered back-off: exactly one more try.
		w.advance(retry.Max * 5 / 4)
		if got := world.checked("flaky"); got != before+1 {
			t.Fatalf("retry %d: %d checks, want %d", i+1, got, before+1)
		}
	}
	w.none("a failure repeating the same way was reported again", func(ev *engine.Event) bool { return ev.Failed })
	world.mu.Lock()
	world.failing["flaky"] = false
	world.mu.Unlock()
	w.advance(retry.Max * 5 / 4)
	ev := w.next(changedEvent("fake#flaky"))
	if ev.Trigger != engine.TriggerRetry {
		t.Fatalf("recovery trigger = %s, want retry", ev.Trigger)
	}
	w.next(changedEvent("fake#child"))
	w.idle()
	w.none("a failure after the recovery", func(ev *engine.Event) bool { return ev.Failed })
}

// startDirAndFile watches a file that requires its directory, both
// converged, with back-offs of an hour so only an immediate retry shows.
func startDirAndFile(t *testing.T) (*world, *watching) {
	t.Helper()
	world := newWorld(t)
	g := load(t, `
- fake:
    - dir: {value: "made", watch: true}
    - file: {value: "1", watch: true, require: [fake#dir]}
`)
	w := startWatching(t, g, engine.Options{Retry: engine.RetryPolicy{Base: time.Hour, Max: time.Hour}})
	w.next(changedEvent("fake#file"))
	w.idle()
	return world, w
}

// TestWatchRetriesAChildAtOnceWhenItsParentChanges is a file checked
// before its directory was made again: it fails for the missing parent,
// and runs again as soon as the directory is back, not after its back-off.
func TestWatchRetriesAChildAtOnceWhenItsParentChanges(t *testing.T) {
	world, w := startDirAndFile(t)
	world.mu.Lock()
	world.values["dir"] = "gone"
	world.failing["file"] = true
	world.applied = func(name string) {
		if name == "dir" {
			world.mu.Lock()
			world.failing["file"] = false
			world.mu.Unlock()
		}
	}
	world.mu.Unlock()
	w.src.fire("/fake/file")
	w.next(func(ev *engine.Event) bool { return ev.ID() == "fake#file" && ev.Failed })
	w.idle()
	w.src.fire("/fake/dir")
	w.next(changedEvent("fake#dir"))
	if ev := w.next(func(ev *engine.Event) bool { return ev.ID() == "fake#file" }); ev.Failed || ev.Trigger != engine.TriggerRetry {
		t.Fatalf("the child's run after its parent changed: %+v", ev)
	}
}

// TestWatchRetriesAChildAtOnceWhenItsParentChangedDuringItsRun is a file
// whose check was under way when its directory was made again: its
// failure for the missing parent is stale, so it runs again at once.
func TestWatchRetriesAChildAtOnceWhenItsParentChangedDuringItsRun(t *testing.T) {
	world, w := startDirAndFile(t)
	dirDone := make(chan struct{})
	checks := 0
	world.mu.Lock()
	world.values["dir"] = "gone"
	world.checking = func(name string) {
		if name != "file" {
			return
		}
		checks++
		if checks == 1 {
			// The directory is made again, and done with, while the
			// file's check runs, which then fails as it found none.
			w.src.fire("/fake/dir")
			<-dirDone
		}
		world.mu.Lock()
		world.failing["file"] = checks == 1
		world.mu.Unlock()
	}
	world.mu.Unlock()
	w.src.fire("/fake/file")
	w.next(changedEvent("fake#dir"))
	close(dirDone)
	w.next(func(ev *engine.Event) bool { return ev.ID() == "fake#file" && ev.Failed })
	if ev := w.next(func(ev *engine.Event) bool { return ev.ID() == "fake#file" }); ev.Failed || ev.Trigger != engine.TriggerRetry {
		t.Fatalf("the child's run after its parent changed during its run: %+v", ev)
	}
}

// TestWatchForgetsTheEchoOfItsOwnWrite repairs a drift whose write the
// source echoes at once, as inotify does: with a source that can flush,
// the check after the write covers the echo, which asks for no other.
func TestWatchForgetsTheEchoOfItsOwnWrite(t *testing.T) {
	for _, tt := range []struct {
		name   string
		flush  func()
		checks int
	}{
		{"source without flush", nil, 3},
		{"source with flush", func() {}, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			world := newWorld(t)
			g := load(t, `
- fake:
    - conf: {value: "1", watch: true}
`)
			w := startWatching(t, g, engine.Options{Watchers: engine.Watchers{Flush: tt.flush}})
			w.next(changedEvent("fake#conf"))
			w.idle()
			world.mu.Lock()
			world.values["conf"] = "drifted"
			world.applied = func(name string) { w.src.fire("/fake/" + name) }
			before := world.checks["conf"]
			world.mu.Unlock()
			w.src.fire("/fake/conf")
			w.next(changedEvent("fake#conf"))
			w.idle()
			if got := world.checked("conf") - before; got != tt.checks {
				t.Errorf("%d checks for one repair, want %d", got, tt.checks)
			}
		})
	}
}

func TestWatchMarksAFightContestedAndBacksOff(t *testing.T) {
	world := newWorld(t)
	g := load(t, `
- fake:
    - fought: {value: "ours", watch: true}
`)
	w := startWatching(t, g, engine.Options{Contest: engine.ContestPolicy{Window: time.Minute, Limit: 3, Backoff: time.Hour, MaxBackoff: time.Hour}})
	w.next(changedEvent("fake#fought"))
	var contested *engine.Event
	for i := 0; i < 4; i++ {
		w.drift(world, "fought", "theirs")
		ev := w.next(changedEvent("fake#fought"))
		if ev.Contested {
			contested = ev
		}
	}
	if contested == nil {
		t.Fatal("four repairs within the window with a limit of three: want a contested event")
	}
	w.drift(world, "fought", "theirs")
	w.idle()
	w.none("a contested resource must back off", func(*engine.Event) bool { return true })
	if st := w.e.State(); st.Contested != 1 || len(st.ContestedIDs) != 1 || st.ContestedIDs[0] != "fake#fought" {
		t.Fatalf("state = %+v", st)
	}
}

func TestWatchCoalescesEventsWhileQueued(t *testing.T) {
	world := newWorld(t)
	g := load(t, `
- fake:
    - slow: {value: "1", sleep: 100ms, watch: true}
    - busy: {value: "1", watch: true, require: [fake#slow]}
`)
	// Verbose: every check is an event, including those that find
	// nothing to do.
	w := startWatching(t, g, engine.Options{Verbose: true})
	w.next(changedEvent("fake#busy"))
	w.drift(world, "slow", "drifted")
	// While slow runs, busy waits for it: ten events are one check.
	for range 10 {
		w.src.fire("/fake/busy")
	}
	w.next(changedEvent("fake#slow"))
	w.idle()
	n := 0
	for len(w.events) > 0 {
		if ev := <-w.events; ev.ID() == "fake#busy" {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("busy was checked %d times after ten queued events, want 1", n)
	}
}

func TestSwapKeepsUnchangedAddsNewAndDropsRemoved(t *testing.T) {
	world := newWorld(t)
	dir := t.TempDir()
	g := loadIn(t, dir, `
- fake:
    - kept: {value: "1", watch: true}
    - removed: {value: "1", watch: true}
    - changed: {value: "1", watch: true}
`)
	w := startWatching(t, g, engine.Options{})
	for range 3 {
		w.next(func(ev *engine.Event) bool { return ev.Changed })
	}
	g2 := loadIn(t, dir, `
- fake:
    - kept: {value: "1", watch: true}
    - changed: {value: "2", watch: true}
    - added: {value: "1", watch: true}
`)
	st, err := w.e.Swap(t.Context(), g2)
	if err != nil {
		t.Fatal(err)
	}
	if st != (engine.SwapStats{Kept: 1, Added: 2, Removed: 2}) {
		t.Fatalf("swap = %+v", st)
	}
	seen := map[string]engine.Trigger{}
	for len(seen) < 2 {
		ev := w.next(func(ev *engine.Event) bool { return true })
		seen[ev.ID()] = ev.Trigger
	}
	if seen["fake#changed"] != engine.TriggerReload || seen["fake#added"] != engine.TriggerReload {
		t.Fatalf("reload events = %v", seen)
	}
	if world.get("changed") != "2" || w.src.watched("/fake/removed") {
		t.Fatalf("changed = %q, removed still watched = %v", world.get("changed"), w.src.watched("/fake/removed"))
	}
	if err := w.e.Ping(t.Context()); err != nil {
		t.Fatalf("ping: %v", err)
	}
}
