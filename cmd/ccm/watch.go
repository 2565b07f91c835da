package main

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/control"
	"github.com/reactive-ccm/ccm/engine/fleet/report"
	"github.com/reactive-ccm/ccm/engine/fleet/source"
	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/watchers/inotify"
	"github.com/reactive-ccm/ccm/watchers/mountinfo"
	"github.com/reactive-ccm/ccm/watchers/poll"
	"github.com/reactive-ccm/ccm/watchers/systemd"
	"github.com/reactive-ccm/ccm/watchers/writer"
	"github.com/spf13/cobra"
)

// defaultPoll is the interval of polled watches when --poll is not given:
// exec guards and paths inotify refused (the systemd hub polls units
// without a system bus at its own interval).
const defaultPoll = 10 * time.Second

// watch runs the engine in watch mode until ctx ends: manifests are
// watched and reloaded on change or SIGHUP, SIGUSR1 forces a full
// re-check.
func watch(ctx context.Context, cmd *cobra.Command, files []string, g *graph.Graph, opts engine.Options, f runFlags, out *printer, rep *report.Reporter) error {
	started := time.Now()
	log := opts.Logger
	srcs := newSources(ctx, log, f.poll, f.every)
	opts.Watchers = srcs.watchers()
	opts.PollInterval = srcs.interval
	opts.ForcePoll = f.poll > 0
	opts.Recheck = f.recheck
	opts.Contest = f.contest
	if f.recheck == 0 {
		opts.Recheck = -1
	}
	opts.HealthInterval = f.health
	if f.health == 0 {
		opts.HealthInterval = -1
	}
	first := true
	sdn := newSDNotifier(log)
	opts.OnSettled = func(st engine.State) {
		sdn.settled(st)
		if rep != nil {
			rep.Settled(st)
		}
		lvl := slog.LevelDebug
		if first {
			lvl, first = slog.LevelInfo, false
		}
		log.Log(ctx, lvl, "converged", "resources", st.Resources, "ok", st.Converged,
			"failed", st.Failed, "unhealthy", st.Unhealthy, "rolled_back", st.RolledBack, "blocked", st.Blocked, "contested", st.Contested, "pending", st.Pending)
	}
	var srv *control.Server
	events := opts.Events
	opts.Events = func(ev *engine.Event) {
		events(ev)
		if srv != nil {
			srv.Publish(ev)
		}
	}
	reg, err := registryOf(cmd)
	if err != nil {
		return err
	}
	var r *reloader
	opts.Watchers.Lookups = func(l *resources.Lookups, notify func()) func() {
		return reg.Watch(l, func() {
			notify()
			// What a resource read while loading needs a reload.
			if l.Loaded() != "" {
				r.forceNow()
			}
		})
	}
	if opts.Announce != nil {
		go reg.Run(ctx)
	}
	d := &watchDaemon{srcs: srcs, started: started}
	if err := serveMetrics(ctx, f, d, &opts, log); err != nil {
		return err
	}
	e := engine.New(g, opts)
	rem, err := remoteOf(cmd)
	if err != nil {
		return err
	}
	paths, err := manifestPaths(cmd, files)
	if err != nil {
		return err
	}
	r = &reloader{cmd: cmd, files: files, engine: e, log: log, srcs: srcs, remote: rem, pending: make(chan struct{}, 1), now: make(chan struct{}, 1), sdn: sdn,
		reported: func(error) {}, applied: func([]source.Status) {}}
	if rep != nil {
		r.reported = rep.Reloaded
		r.applied = func(in []source.Status) {
			revs, _ := fleetRevisions(in)
			rep.Applied(revs)
		}
		go rep.Run(ctx)
	}
	d.Engine, d.reload = e, r
	srv, err = serveControl(ctx, cmd, d, log)
	if err != nil {
		return err
	}
	sdn.start(ctx, e)
	r.watch(inputsOf(cmd, paths, g, rem.sources.Sum))
	defer func() { r.unwatch() }()
	go r.loop(ctx)
	// Remote sources feed the same reload path as local edits.
	rem.sources.Watch(ctx, r.requestNow)
	go handleSignals(ctx, r, e)
	_, err = e.Run(ctx)
	out.session(time.Since(started), r.stats().reloads, e.State())
	if errors.Is(err, context.Canceled) {
		log.Info("stopped")
		return nil
	}
	return err
}

// sources are the shared event sources of this process.
type sources struct {
	poll    *poll.Hub
	inotify *inotify.Hub // nil in polling mode
	// mounts watches the mount table; it starts with its first watch.
	mounts   *mountinfo.Hub
	interval time.Duration
	// writers watches who changes the paths of fighting resources.
	writers *writer.Spotter
}

// newSources opens one polling hub and, unless every watch is polled, one
// inotify instance; without inotify everything is polled.
func newSources(ctx context.Context, log *slog.Logger, pollEvery, interval time.Duration) *sources {
	s := &sources{poll: poll.New(ctx), interval: interval, writers: writer.New(log)}
	s.mounts = mountinfo.New(ctx, log, func(_ string, notify func()) func() { return s.poll.Every(s.interval, notify) })
	if pollEvery > 0 {
		s.interval = pollEvery
		log.Info("polling every watched resource", "interval", pollEvery)
		return s
	}
	hub, err := inotify.New(ctx, log, func(_ string, notify func()) func() {
		return s.poll.Every(s.interval, notify)
	})
	if err != nil {
		log.Warn("inotify unavailable; polling every watched resource", "interval", s.interval, "error", err)
		return s
	}
	s.inotify = hub
	return s
}

func (s *sources) watchers() engine.Watchers {
	w := engine.Watchers{Poll: s.poll.Every, Units: systemd.Default().Watch, Mounts: s.mounts.Watch, Ready: systemd.Default().Ready,
		Writers: func(paths []string) engine.Witness { return s.writers.Watch(paths) }}
	if s.inotify != nil {
		w.Paths = s.inotify.WatchPolled
		w.Trees = s.inotify.WatchTree
		w.Flush = s.inotify.Flush
	}
	return w
}

// watchFile watches one of ccm's own input files.
func (s *sources) watchFile(path string, notify func()) (cancel func()) {
	if s.inotify != nil {
		return s.inotify.Watch(path, notify)
	}
	return s.poll.Every(s.interval, notify)
}

// handleSignals maps SIGHUP to a reload, SIGUSR1 to a full re-check and
// SIGUSR2 to releasing every rolled-back resource.
func handleSignals(ctx context.Context, r *reloader, e *engine.Engine) {
	sig := make(chan os.Signal, 4)
	signal.Notify(sig, syscall.SIGHUP, syscall.SIGUSR1, syscall.SIGUSR2)
	defer signal.Stop(sig)
	for {
		select {
		case <-ctx.Done():
			return
		case s := <-sig:
			switch s {
			case syscall.SIGUSR1:
				r.log.Info("SIGUSR1: re-checking every resource")
				e.Recheck()
				continue
			case syscall.SIGUSR2:
				r.log.Info("SIGUSR2: releasing rolled-back resources", "released", e.Release())
				continue
			}
			r.log.Info("SIGHUP: gathering facts again and reloading manifests")
			forgetSystemFacts()
			r.force()
		}
	}
}

// reloader recompiles the manifests when their inputs change and swaps
// the graph.
type reloader struct {
	cmd *cobra.Command
	// files are the manifest arguments: paths, obj:// or https:// bundles.
	files  []string
	remote *remote
	// reported hears the outcome of every reload: nil or why it failed;
	// applied, after one that compiled, the source revisions it loaded.
	reported func(error)
	applied  func([]source.Status)
	engine   *engine.Engine
	log      *slog.Logger
	srcs     *sources
	sdn      *sdNotifier

	mu      sync.Mutex
	in      inputs
	sum     []byte // content hash of the inputs last loaded
	unwatch func()
	forced  bool
	pending chan struct{}
	// now asks for a reload without waiting for the inputs to settle: a
	// remote revision arrives whole.
	now    chan struct{}
	counts reloads
}

// reloads counts the reloads of a watch session.
type reloads struct {
	reloads, failures int
	last              time.Time
}

func (r *reloader) stats() reloads {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.counts
}

// count records a reload's outcome.
func (r *reloader) count(ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.counts.reloads++
	r.counts.last = time.Now()
	if !ok {
		r.counts.failures++
	}
}

// watch starts watching in, dropping the watches of the previous inputs.
// Callers other than the constructor hold r.mu.
func (r *reloader) watch(in inputs) {
	if r.unwatch != nil {
		r.unwatch()
	}
	r.in, r.sum = in, in.sum()
	r.unwatch = r.srcs.watchInputs(in, r.request)
}

// request asks for a reload if the inputs' content changed.
func (r *reloader) request() {
	select {
	case r.pending <- struct{}{}:
	default:
	}
}

// requestNow asks for a reload at once, for a new remote revision.
func (r *reloader) requestNow() {
	select {
	case r.now <- struct{}{}:
	default:
	}
}

// forceNow asks for a reload at once, even if the inputs look unchanged:
// what a template read from the registry while loading changed.
func (r *reloader) forceNow() {
	r.mu.Lock()
	r.forced = true
	r.mu.Unlock()
	r.requestNow()
}

// force asks for a reload even if the inputs look unchanged (SIGHUP).
func (r *reloader) force() {
	r.mu.Lock()
	r.forced = true
	r.mu.Unlock()
	r.request()
}

// quiet is how long the inputs must stay still before a reload: editors
// write in several steps.
const quiet = 100 * time.Millisecond

func (r *reloader) loop(ctx context.Context) {
	for {
		settled := false
		select {
		case <-ctx.Done():
			return
		case <-r.pending:
		case <-r.now:
			settled = true
		}
		// Let a burst of writes settle into one reload.
		for !settled {
			select {
			case <-ctx.Done():
				return
			case <-r.pending:
			case <-r.now:
				settled = true
			case <-time.After(quiet):
				settled = true
			}
		}
		if r.due() {
			r.sdn.reloading(func() { r.reload(ctx) })
		}
	}
}

// due reports whether the inputs changed since the last load, or a reload
// was forced.
func (r *reloader) due() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	forced := r.forced
	r.forced = false
	return forced || !bytes.Equal(r.in.sum(), r.sum)
}

func (r *reloader) reload(ctx context.Context) {
	loading := r.remote.sources.InForce()
	remote := r.remote.sources.Sum()
	// A remote revision that arrives while this load reads the sources
	// would count as loaded when the inputs are hashed after it: look again.
	defer func() {
		if !bytes.Equal(remote, r.remote.sources.Sum()) {
			r.mu.Lock()
			r.forced = true
			r.mu.Unlock()
			r.requestNow()
		}
	}()
	paths, err := manifestPaths(r.cmd, r.files)
	var g *graph.Graph
	if err == nil {
		g, err = graph.Load(paths, loadOptions(r.cmd))
	}
	if err != nil {
		r.log.Error("reload failed; the running manifests stay in force until this is fixed", "error", err)
		r.count(false)
		r.reported(err)
		r.mu.Lock()
		// Remember what failed, so only a further change retries.
		r.sum = r.in.sum()
		r.mu.Unlock()
		return
	}
	st, err := r.engine.Swap(ctx, g)
	if err != nil {
		r.log.Error("reload", "error", err)
	}
	r.mu.Lock()
	r.watch(inputsOf(r.cmd, paths, g, r.remote.sources.Sum))
	r.mu.Unlock()
	r.count(true)
	r.reported(nil)
	r.applied(loading)
	r.remote.sources.MarkGood()
	r.log.Info("reloaded manifests", "kept", st.Kept, "added", st.Added, "removed", st.Removed)
}
