package main

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/control"
	"github.com/reactive-ccm/ccm/engine/daemon/eventlog"
	"github.com/reactive-ccm/ccm/engine/daemon/hubs"
	"github.com/reactive-ccm/ccm/engine/daemon/reload"
	"github.com/reactive-ccm/ccm/engine/daemon/sdnotify"
	"github.com/reactive-ccm/ccm/engine/fleet/report"
	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/internal/memory"
	"github.com/reactive-ccm/ccm/resources"
	"github.com/spf13/cobra"
)

// defaultPoll is the interval of polled watches when --poll is not given:
// exec guards and paths inotify refused (the systemd hub polls units
// without a system bus at its own interval).
const defaultPoll = 10 * time.Second

// watch runs the engine in watch mode until ctx ends: manifests are
// watched and reloaded on change or SIGHUP, SIGUSR1 forces a full
// re-check.
func watch(ctx context.Context, cmd *cobra.Command, files []string, g *graph.Graph, opts engine.Options, f runFlags, out printer, rep *report.Reporter) error {
	started := time.Now()
	log := opts.Logger
	h := hubs.Open(ctx, log, f.poll, f.every)
	watchOptions(&opts, f, h)
	sdn := sdnotify.New(log, statusLine)
	gc := memory.New(func(err error) { log.Warn("the program's pages stay resident", "error", err) })
	opts.OnSettled = settled(ctx, log, sdn, rep, gc)
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
	var r *reload.Reloader
	opts.Watchers.Lookups = func(l *resources.Lookups, notify func()) func() {
		return reg.Watch(l, func() {
			notify()
			// What a resource read while loading needs a reload.
			if l.Loaded() != "" {
				r.ForceNow()
			}
		})
	}
	if opts.Announce != nil {
		go reg.Run(ctx)
	}
	d := &watchDaemon{hubs: h, started: started}
	startMetrics, err := serveMetrics(ctx, f, d, &opts, log)
	if err != nil {
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
	if rep != nil {
		go rep.Run(ctx)
	}
	r = newReloader(cmd, files, paths, g, rem, reload.Options{Swap: e.Swap, Watcher: h, Around: gc.Around(sdn.Reloading), Logger: log}, rep)
	d.Engine, d.reload = e, r
	startMetrics()
	srv, err = serveControl(ctx, cmd, d, log)
	if err != nil {
		return err
	}
	sdn.Start(ctx, e)
	go r.Run(ctx)
	// Remote sources feed the same reload path as local edits.
	rem.sources.Watch(ctx, r.RequestNow)
	go handleSignals(ctx, log, r, e)
	_, err = e.Run(ctx)
	st := e.State()
	out.Session(time.Since(started), r.Stats().Reloads, st, statusLine(st))
	if errors.Is(err, context.Canceled) {
		log.Info("stopped")
		return nil
	}
	return err
}

// watchOptions sets what watch mode adds to opts: the hubs, and the
// periods f gives (0 disables the re-check and the health checks).
func watchOptions(opts *engine.Options, f runFlags, h *hubs.Hubs) {
	opts.Watchers = h.Watchers()
	opts.PollInterval = h.Interval
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
}

// newReloader reloads the manifests files name (paths, as found now,
// compiled to g) into the engine opts swaps into: local and remote
// inputs alike, each reload reported to rep when there is one.
func newReloader(cmd *cobra.Command, files, paths []string, g *graph.Graph, rem *remote, opts reload.Options, rep *report.Reporter) *reload.Reloader {
	opts.Load = func(context.Context) (*graph.Graph, reload.Inputs, error) {
		paths, err := manifestPaths(cmd, files)
		if err != nil {
			return nil, reload.Inputs{}, err
		}
		g, err := graph.Load(paths, loadOptions(cmd))
		if err != nil {
			return nil, reload.Inputs{}, err
		}
		return g, inputsOf(cmd, paths, g, rem.sources.Sum), nil
	}
	opts.Begin = func() func() {
		loading := rem.sources.InForce()
		return func() {
			if rep != nil {
				revs, _ := report.FromSources(loading)
				rep.Applied(revs)
			}
			rem.sources.MarkGood()
		}
	}
	if rep != nil {
		opts.Reported = rep.Reloaded
	}
	return reload.New(inputsOf(cmd, paths, g, rem.sources.Sum), opts)
}

// settled is what the engine calls each time it settles: systemd hears
// of it, the fleet's report too, and the log says so (at info level the
// first time).
func settled(ctx context.Context, log *slog.Logger, sdn *sdnotify.Notifier, rep *report.Reporter, gc *memory.Pacer) func(engine.State) {
	first := true
	return func(st engine.State) {
		lvl := slog.LevelDebug
		if first {
			lvl, first = slog.LevelInfo, false
			// The start's load is over. Its collection comes before the
			// daemon says it is ready and converged (it holds the
			// engine's events for as long, once), so none of its CPU
			// falls on the repairs after.
			gc.Loaded()
		}
		sdn.Settled(st)
		if rep != nil {
			rep.Settled(st)
		}
		log.Log(ctx, lvl, "converged", "resources", st.Resources, "ok", st.Converged,
			"failed", st.Failed, "unhealthy", st.Unhealthy, "rolled_back", st.RolledBack, "blocked", st.Blocked, "contested", st.Contested, "pending", st.Pending)
	}
}

// statusLine is what `systemctl status ccm` shows: "12 resources: 11
// converged, 1 failed".
func statusLine(st engine.State) string {
	return eventlog.CountsLine(st.Counts(), time.Time{}, time.Time{})
}

// handleSignals maps SIGHUP to a reload, SIGUSR1 to a full re-check and
// SIGUSR2 to releasing every rolled-back resource.
func handleSignals(ctx context.Context, log *slog.Logger, r *reload.Reloader, e *engine.Engine) {
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
				log.Info("SIGUSR1: re-checking every resource")
				e.Recheck()
				continue
			case syscall.SIGUSR2:
				log.Info("SIGUSR2: releasing rolled-back resources", "released", e.Release())
				continue
			}
			log.Info("SIGHUP: gathering facts again and reloading manifests")
			sysFacts.Forget()
			r.Force()
		}
	}
}
