package enginetest

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/watchers/inotify"
	"github.com/reactive-ccm/ccm/watchers/mountinfo"
	"github.com/reactive-ccm/ccm/watchers/poll"
)

// DefaultTimeout bounds every wait of a Run unless Options say otherwise.
// It only ends a test that would otherwise hang: a wait returns as soon
// as what it awaits happens, so the bound is generous for loaded machines
// running every package under -race.
const DefaultTimeout = time.Minute

// fallbackPoll is how often paths inotify refused are polled when
// Engine.PollInterval does not say.
const fallbackPoll = time.Second

// Options configure a Run. The zero value runs the engine with the
// settings StartFile describes and waits up to DefaultTimeout.
type Options struct {
	// Engine configures the engine; StartFile says what the Run sets.
	Engine engine.Options
	// Timeout bounds every wait.
	Timeout time.Duration
	// AllowFailures makes Changed tolerate failed events of the awaited
	// resource, which the engine retries, reporting them only when no
	// change comes in time: for resources whose applies may meet a
	// transient failure, such as a package manager's lock.
	AllowFailures bool
}

// Run is a watch-mode engine running until the test ends. Its waits take
// the test or subtest that waits, as testing.TB, so a failure stops the
// right goroutine.
type Run struct {
	engine *engine.Engine
	opts   Options

	mu sync.Mutex
	// events are recorded and not yet consumed by Next or Settle. The list
	// is unbounded so the engine never waits on a test that is not reading.
	events []*engine.Event
	// added is signalled after an event is recorded.
	added chan struct{}
	// settled is signalled when the engine settles; it holds one signal,
	// so settling before Settle is called is not missed.
	settled chan struct{}
}

// Start writes manifest into a temporary directory and runs it as
// StartFile does.
func Start(tb testing.TB, manifest string, opts Options) *Run {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "manifest.yaml")
	if err := os.WriteFile(path, []byte(manifest), 0o644); err != nil {
		tb.Fatal(err)
	}
	return StartFile(tb, path, opts)
}

// StartFile loads the manifest at path and runs it in watch mode until
// the test ends. opts.Engine goes to engine.New with Watch set, Events and
// OnSettled recorded by the Run, Paths, Trees and Poll from the real hubs
// (the caller's Units and Ready are kept; the polling hub keeps time by
// the caller's Clock when one is set), Verbose (every run is an event), a
// discarding Logger when none is given, and the periodic full re-check off
// unless Recheck is set. The
// test is skipped when inotify is unavailable.
func StartFile(tb testing.TB, path string, opts Options) *Run {
	tb.Helper()
	g, err := graph.Load([]string{path}, graph.Options{})
	if err != nil {
		tb.Fatalf("loading %s: %v", path, err)
	}
	ctx, cancel := context.WithCancel(tb.Context())
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	r := &Run{opts: opts, added: make(chan struct{}, 1), settled: make(chan struct{}, 1)}
	if err := r.configure(ctx, &r.opts.Engine); err != nil {
		cancel()
		tb.Skipf("inotify unavailable: %v", err)
	}
	r.engine = engine.New(g, r.opts.Engine)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := r.engine.Run(ctx); err != nil && ctx.Err() == nil {
			tb.Errorf("engine: %v", err)
		}
	}()
	tb.Cleanup(func() {
		cancel()
		<-done
	})
	return r
}

// configure completes opts with the hubs, which live as long as ctx, and
// the Run's recorders.
func (r *Run) configure(ctx context.Context, opts *engine.Options) error {
	opts.Watch = true
	// Every run is recorded, so a test can wait for a check that found
	// nothing to do.
	opts.Verbose = true
	opts.Events = r.record
	opts.OnSettled = func(engine.State) { signal(r.settled) }
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Recheck == 0 {
		opts.Recheck = -1
	}
	every := fallbackPoll
	if opts.PollInterval > 0 {
		every = opts.PollInterval
	}
	var popts []poll.Option
	if opts.Clock != nil {
		popts = append(popts, poll.WithClock(opts.Clock))
	}
	polls := poll.New(ctx, popts...)
	hub, err := inotify.New(ctx, opts.Logger, func(_ string, notify func()) func() { return polls.Every(every, notify) })
	if err != nil {
		return err
	}
	opts.Watchers.Paths, opts.Watchers.Trees, opts.Watchers.Poll = hub.WatchPolled, hub.WatchTree, polls.Every
	if opts.Watchers.Mounts == nil {
		opts.Watchers.Mounts = mountinfo.New(ctx, opts.Logger, func(_ string, notify func()) func() { return polls.Every(every, notify) }).Watch
	}
	return nil
}

func (r *Run) record(ev *engine.Event) {
	r.mu.Lock()
	r.events = append(r.events, ev)
	r.mu.Unlock()
	signal(r.added)
}

// signal sends on a channel of capacity one without blocking: one pending
// signal stands for any number.
func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// Reload loads the manifest at path as StartFile does and swaps it in, as
// a manifest reload does.
func (r *Run) Reload(tb testing.TB, path string) engine.SwapStats {
	tb.Helper()
	g, err := graph.Load([]string{path}, graph.Options{})
	if err != nil {
		tb.Fatalf("loading %s: %v", path, err)
	}
	st, err := r.engine.Swap(tb.Context(), g)
	if err != nil {
		tb.Fatalf("swapping in %s: %v", path, err)
	}
	return st
}

// Engine returns the running engine, for Swap, State or Recheck.
func (r *Run) Engine() *engine.Engine { return r.engine }
