package reload

import (
	"bytes"
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/watchers/clock"
)

// Defaults of Options.Quiet and Options.MaxWait.
const (
	DefaultQuiet   = 100 * time.Millisecond
	DefaultMaxWait = 2 * time.Second
)

// Options configure a Reloader. Load, Swap and Watcher are required.
type Options struct {
	// Load compiles the manifests and says what they were compiled from.
	Load func(ctx context.Context) (*graph.Graph, Inputs, error)
	// Swap puts a compiled graph in force (engine.Engine.Swap).
	Swap func(ctx context.Context, g *graph.Graph) (engine.SwapStats, error)
	// Watcher watches the inputs.
	Watcher Watcher
	// Begin, when set, is called as a reload starts; what it returns, when
	// not nil, is called once the reload succeeded (the revisions of the
	// remote sources it loaded are then applied, and good).
	Begin func() (loaded func())
	// Reported, when set, hears the outcome of every reload: nil, or why
	// it failed.
	Reported func(error)
	// Around, when set, wraps every reload (systemd hears RELOADING=1
	// before and READY=1 after).
	Around func(reload func())
	// Quiet is how long the inputs must stay still before a reload;
	// default DefaultQuiet. MaxWait bounds the wait from the first request
	// of a burst; default DefaultMaxWait.
	Quiet, MaxWait time.Duration
	// Clock times the debounce; default the system clock.
	Clock  clock.Clock
	Logger *slog.Logger
}

// Stats count the reloads of a daemon's life.
type Stats struct {
	Reloads, Failures int
	// Last is when the last reload ended.
	Last time.Time
}

// Reloader is the reload loop of one engine.
type Reloader struct {
	opts Options
	// pending asks for a comparison of the inputs; now asks for a reload
	// without waiting for the inputs to settle.
	pending, now chan struct{}

	mu      sync.Mutex
	in      Inputs
	sum     []byte // the hash of the inputs last loaded, or last failed on
	unwatch func()
	forced  bool
	stats   Stats
}

// New returns the reload loop of a graph compiled from in, watching in
// at once; Run runs it.
func New(in Inputs, opts Options) *Reloader {
	if opts.Quiet <= 0 {
		opts.Quiet = DefaultQuiet
	}
	if opts.MaxWait <= 0 {
		opts.MaxWait = DefaultMaxWait
	}
	if opts.Clock == nil {
		opts.Clock = clock.Real()
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	r := &Reloader{opts: opts, pending: make(chan struct{}, 1), now: make(chan struct{}, 1)}
	r.mu.Lock()
	r.watch(in, in.Sum())
	r.mu.Unlock()
	return r
}

// Request asks for a reload if the inputs' content changed: what their
// watches call.
func (r *Reloader) Request() { signal(r.pending) }

// RequestNow asks for a reload at once, without waiting for the inputs to
// settle: a new remote revision arrives whole.
func (r *Reloader) RequestNow() { signal(r.now) }

// Force asks for a reload even when the inputs look unchanged (SIGHUP).
func (r *Reloader) Force() {
	r.force()
	r.Request()
}

// ForceNow asks for a reload at once even when the inputs look
// unchanged: what a template read while loading (a registration) changed.
func (r *Reloader) ForceNow() {
	r.force()
	r.RequestNow()
}

func (r *Reloader) force() {
	r.mu.Lock()
	r.forced = true
	r.mu.Unlock()
}

func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// Stats returns the reloads so far.
func (r *Reloader) Stats() Stats {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stats
}

// Run reloads whenever asked to and due, until ctx ends; then it drops
// the inputs' watches.
func (r *Reloader) Run(ctx context.Context) {
	defer func() {
		r.mu.Lock()
		r.unwatch()
		r.mu.Unlock()
	}()
	for {
		select {
		case <-ctx.Done():
			return
		case <-r.pending:
			if !r.settle(ctx) {
				return
			}
		case <-r.now:
		}
		if r.due() {
			r.around(func() { r.reload(ctx) })
		}
	}
}

// settle waits until the inputs were still for Quiet, or MaxWait passed
// since the request that started the wait, or a reload is asked for at
// once; false when ctx ended first. One timer runs to the earlier of the
// two deadlines.
func (r *Reloader) settle(ctx context.Context) bool {
	clk := r.opts.Clock
	most := clk.Now().Add(r.opts.MaxWait)
	t := clk.NewTimer(r.opts.Quiet)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return false
		case <-r.pending:
			next := clk.Now().Add(r.opts.Quiet)
			if next.After(most) {
				next = most
			}
			t.ResetAt(next)
		case <-r.now:
			return true
		case <-t.C():
			return true
		}
	}
}

func (r *Reloader) around(reload func()) {
	if r.opts.Around == nil {
		reload()
		return
	}
	r.opts.Around(reload)
}

// due reports whether the inputs changed since they were last loaded, or
// a reload was forced.
func (r *Reloader) due() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	forced := r.forced
	r.forced = false
	return forced || !bytes.Equal(r.in.Sum(), r.sum)
}

// watch starts watching in, whose content hashed to sum once loaded,
// then drops the watches of the inputs before: a change while the graph
// was swapped in, or between the two watches, is caught by one of them or
// by the look after. Callers hold r.mu.
func (r *Reloader) watch(in Inputs, sum []byte) {
	old := r.unwatch
	r.in, r.sum = in, sum
	r.unwatch = in.watch(r.opts.Watcher, r.Request)
	if old != nil {
		old()
	}
	if !bytes.Equal(in.Sum(), sum) {
		signal(r.pending)
	}
}

// reload compiles the manifests and swaps the graph in; a graph that
// does not compile leaves the running one in force.
func (r *Reloader) reload(ctx context.Context) {
	var loaded func()
	if r.opts.Begin != nil {
		loaded = r.opts.Begin()
	}
	if remote := r.in.Remote; remote != nil {
		before := remote()
		// A remote revision that arrives while this load reads the
		// sources would count as loaded when the inputs are hashed after
		// it: look again.
		defer func() {
			if !bytes.Equal(before, remote()) {
				r.ForceNow()
			}
		}()
	}
	r.mu.Lock()
	before := r.in
	r.mu.Unlock()
	pre := before.Sum()
	g, in, err := r.opts.Load(ctx)
	if err != nil {
		r.opts.Logger.Error("reload failed; the running manifests stay in force until this is fixed", "error", err)
		r.failed(err, pre)
		return
	}
	// What was loaded is taken to hash as the same paths did before the
	// load read them, so an edit after that read reloads (one before it
	// costs one reload more); new paths are hashed as soon as can be.
	sum := pre
	if !before.samePaths(in) {
		sum = in.Sum()
	}
	st, err := r.opts.Swap(ctx, g)
	if err != nil {
		r.opts.Logger.Error("reload", "error", err)
	}
	r.mu.Lock()
	r.watch(in, sum)
	r.mu.Unlock()
	r.count(true)
	r.report(nil)
	if loaded != nil {
		loaded()
	}
	r.opts.Logger.Info("reloaded manifests", "kept", st.Kept, "added", st.Added, "removed", st.Removed)
}

// failed records a reload that did not compile; what it failed on (the
// inputs as they hashed before the load read them, pre) is remembered,
// so only a further change tries again, an edit made while the load
// failed included.
func (r *Reloader) failed(err error, pre []byte) {
	r.count(false)
	r.report(err)
	r.mu.Lock()
	r.sum = pre
	r.mu.Unlock()
}

func (r *Reloader) report(err error) {
	if r.opts.Reported != nil {
		r.opts.Reported(err)
	}
}

// count records a reload's outcome.
func (r *Reloader) count(ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stats.Reloads++
	r.stats.Last = time.Now()
	if !ok {
		r.stats.Failures++
	}
}
