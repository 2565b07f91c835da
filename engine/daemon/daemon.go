package daemon

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/control"
	"github.com/reactive-ccm/ccm/engine/daemon/eventlog"
	"github.com/reactive-ccm/ccm/engine/daemon/hubs"
	"github.com/reactive-ccm/ccm/engine/daemon/reload"
	"github.com/reactive-ccm/ccm/engine/daemon/sdnotify"
	"github.com/reactive-ccm/ccm/engine/fleet/registry"
	"github.com/reactive-ccm/ccm/engine/fleet/report"
	"github.com/reactive-ccm/ccm/engine/fleet/source"
	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/internal/memory"
	"github.com/reactive-ccm/ccm/resources"
)

// Config is what a watching daemon is made of. Graph, Inputs, Load and
// Engine.Events are required; the rest may be left zero.
type Config struct {
	// Graph is the manifests as compiled at start, from Inputs.
	Graph  *graph.Graph
	Inputs reload.Inputs
	// Load compiles the manifests again, for a reload.
	Load func(ctx context.Context) (*graph.Graph, reload.Inputs, error)
	// Engine are the engine's options; Run adds watch mode's (the
	// hubs, the periods below) and chains its own Events and OnSettled
	// after the ones given.
	Engine engine.Options
	// Poll watches by polling at this interval instead of inotify (0:
	// inotify); PollInterval is the interval of polled watches.
	Poll, PollInterval time.Duration
	// Recheck and Health are the periods of the full re-check and of the
	// health checks; 0 disables them.
	Recheck, Health time.Duration
	Contest         engine.ContestPolicy
	// Metrics is the address of the metrics endpoint; "" serves none.
	Metrics            string
	MetricsPerResource bool
	// Socket is the control socket's path; "" serves none. When
	// SocketRequired, one that cannot be opened is an error, else a
	// warning.
	Socket         string
	SocketRequired bool
	// Version is the daemon's version in its status and metrics.
	Version string
	// Sources, Reporter and Registry are the fleet's parts, each nil when
	// the command has none: remote sources reload the manifests on a new
	// revision, the reporter hears of settling and reloads, the registry
	// reloads on changed registrations and announces.
	Sources  *source.Set
	Reporter *report.Reporter
	Registry *registry.Registry
	// Signals are the signals the daemon obeys (SIGHUP, SIGUSR1,
	// SIGUSR2); nil subscribes to the process's.
	Signals <-chan os.Signal
	// Forget, when set, is called on SIGHUP before the reload: the host's
	// facts are gathered again.
	Forget func()
}

// Session is what a daemon's life came to.
type Session struct {
	Took    time.Duration
	Reloads int
	State   engine.State
}

// BadInput is a Config that cannot be served (a metrics address or a
// required socket that cannot be opened): the command's unusable input.
type BadInput struct{ Err error }

func (e *BadInput) Error() string { return e.Err.Error() }
func (e *BadInput) Unwrap() error { return e.Err }

// Run runs the daemon c describes until ctx ends, then waits for its
// servers (the control socket removed) and its signal handling to stop.
// A context ended is a clean stop: the error is nil.
func Run(ctx context.Context, c Config) (Session, error) {
	started := time.Now()
	log := c.Engine.Logger
	if log == nil {
		log = slog.Default()
	}
	h := hubs.Open(ctx, log, c.Poll, c.PollInterval)
	opts := c.options(h)
	opts.Logger = log
	sdn := sdnotify.New(log, StatusLine)
	gc := memory.New(func(err error) { log.Warn("the program's pages stay resident", "error", err) })
	opts.OnSettled = settled(ctx, log, sdn, c.Reporter, gc, opts.OnSettled)
	var srv *control.Server
	events := opts.Events
	opts.Events = func(ev *engine.Event) {
		events(ev)
		if srv != nil {
			srv.Publish(ev)
		}
	}
	var r *reload.Reloader
	c.watchLookups(ctx, &opts, func() { r.ForceNow() })
	d := &watched{hubs: h, started: started, version: c.Version}
	var wg sync.WaitGroup
	startMetrics, err := serveMetrics(ctx, &wg, c, d, &opts, log)
	if err != nil {
		return Session{}, err
	}
	e := engine.New(c.Graph, opts)
	if c.Reporter != nil {
		go c.Reporter.Run(ctx)
	}
	r = reload.New(c.Inputs, c.reloadOptions(e, h, gc.Around(sdn.Reloading), log))
	d.Engine, d.reload = e, r
	startMetrics()
	if srv, err = serveControl(ctx, &wg, c, d, log); err != nil {
		return Session{}, err
	}
	sdn.Start(ctx, e)
	// The reload loop is not waited for: a reload may be fetching a
	// remote bundle, which must not hold the daemon's exit.
	go r.Run(ctx)
	// Remote sources feed the same reload path as local edits.
	if c.Sources != nil {
		c.Sources.Watch(ctx, r.RequestNow)
	}
	c.obeySignals(ctx, &wg, log, r, e)
	_, err = e.Run(ctx)
	wg.Wait()
	s := Session{Took: time.Since(started), Reloads: r.Stats().Reloads, State: e.State()}
	if errors.Is(err, context.Canceled) {
		log.Info("stopped")
		return s, nil
	}
	return s, err
}

// options are c's engine options with watch mode's: the hubs, and the
// periods (0 disables the re-check and the health checks).
func (c Config) options(h *hubs.Hubs) engine.Options {
	opts := c.Engine
	opts.Watch = true
	opts.Watchers = h.Watchers()
	opts.PollInterval = h.Interval
	opts.ForcePoll = c.Poll > 0
	opts.Recheck, opts.HealthInterval = c.Recheck, c.Health
	opts.Contest = c.Contest
	if c.Recheck == 0 {
		opts.Recheck = -1
	}
	if c.Health == 0 {
		opts.HealthInterval = -1
	}
	return opts
}

// watchLookups has the registry watch what resources' templates looked
// up; what a resource read while loading needs a reload (force). The
// registry announces stable resources when the engine announces.
func (c Config) watchLookups(ctx context.Context, opts *engine.Options, force func()) {
	if c.Registry == nil {
		return
	}
	opts.Watchers.Lookups = func(l *resources.Lookups, notify func()) func() {
		return c.Registry.Watch(l, func() {
			notify()
			if l.Loaded() != "" {
				force()
			}
		})
	}
	if opts.Announce != nil {
		go c.Registry.Run(ctx)
	}
}

// reloadOptions reload into e whatever c's inputs, local and remote,
// change to, each reload wrapped in around; each is reported when there
// is a reporter.
func (c Config) reloadOptions(e *engine.Engine, h *hubs.Hubs, around func(func()), log *slog.Logger) reload.Options {
	opts := reload.Options{Load: c.Load, Swap: e.Swap, Watcher: h, Around: around, Logger: log}
	if c.Sources != nil {
		opts.Begin = func() func() {
			loading := c.Sources.InForce()
			return func() {
				if c.Reporter != nil {
					revs, _ := report.FromSources(loading)
					c.Reporter.Applied(revs)
				}
				c.Sources.MarkGood()
			}
		}
	}
	if c.Reporter != nil {
		opts.Reported = c.Reporter.Reloaded
	}
	return opts
}

// StatusLine is what `systemctl status ccm` shows: "12 resources: 11
// converged, 1 failed".
func StatusLine(st engine.State) string {
	return eventlog.CountsLine(st.Counts, time.Time{}, time.Time{})
}
