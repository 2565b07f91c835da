package main

import (
	"context"
	"log/slog"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/control"
	"github.com/reactive-ccm/ccm/engine/daemon/hubs"
	"github.com/reactive-ccm/ccm/engine/daemon/metrics"
	"github.com/reactive-ccm/ccm/engine/daemon/reload"
	"github.com/reactive-ccm/ccm/engine/daemon/status"
)

// watchDaemon is the watching engine as the control socket and the metrics
// see it: its status with the process's own health added.
type watchDaemon struct {
	*engine.Engine
	hubs    *hubs.Hubs
	reload  *reload.Reloader
	started time.Time
}

var _ control.Controller = (*watchDaemon)(nil)

// Status is the engine's report with the daemon's health.
func (d *watchDaemon) Status() status.Report {
	r := d.Engine.Status()
	r.Daemon = d.health(r.Daemon.LastConverged)
	return r
}

// Counts counts the resources by standing, for metrics.
func (d *watchDaemon) Counts() status.Counts { return d.Engine.State().Counts() }

// Health is the daemon's own state, for metrics.
func (d *watchDaemon) Health() status.Daemon { return d.health(d.Engine.LastConverged()) }

func (d *watchDaemon) health(lastConverged time.Time) status.Daemon {
	rl := d.reload.Stats()
	h := status.Daemon{
		PID: os.Getpid(), Version: version(), Started: d.started, Uptime: time.Since(d.started).Seconds(),
		Reloads: rl.Reloads, ReloadFailures: rl.Failures, LastReload: rl.Last, LastConverged: lastConverged,
	}
	h.Watches, h.Polled, h.Overflows = d.hubs.Counts()
	return h
}

// serveMetrics listens on --metrics-listen, when given, and has the
// engine's runs counted; an address that cannot be opened is unusable
// input. The endpoint answers once serve is called, when d has its
// engine and reloader: a scrape before then waits in the listener's
// queue rather than meet a daemon half built.
func serveMetrics(ctx context.Context, f runFlags, d *watchDaemon, opts *engine.Options, log *slog.Logger) (serve func(), err error) {
	if f.metricsAddr == "" {
		return func() {}, nil
	}
	ln, err := metrics.Listen(f.metricsAddr)
	if err != nil {
		return nil, usage(err)
	}
	m := metrics.New(d, metrics.Options{PerResource: f.metricsPerResource, Version: version()})
	opts.Observe = m.Observe
	return func() {
		go func() {
			if err := m.Serve(ctx, ln); err != nil {
				log.Error("metrics endpoint stopped", "error", err)
			}
		}()
		log.Info("serving metrics", "addr", ln.Addr().String())
	}, nil
}

// serveControl opens the control socket and serves it until ctx ends.
// A socket named on purpose (--socket, $CCM_SOCKET) that cannot be opened
// is an error; the default one only a warning, so ccm still runs where
// /run/ccm cannot be made (as another user than root). --socket ""
// disables it.
func serveControl(ctx context.Context, cmd *cobra.Command, d *watchDaemon, log *slog.Logger) (*control.Server, error) {
	flag, _ := cmd.Flags().GetString("socket")
	if flag == "" && cmd.Flags().Changed("socket") {
		return nil, nil
	}
	path := control.Path(flag)
	srv, err := control.Listen(path, d, log)
	if err != nil {
		if flag != "" || os.Getenv(control.PathEnv) != "" {
			return nil, usage(err)
		}
		log.Warn("no control socket; ccm status, events, pause and recheck will not reach this daemon", "error", err)
		return nil, nil
	}
	go func() {
		if err := srv.Serve(ctx); err != nil {
			log.Error("control socket stopped", "socket", path, "error", err)
		}
	}()
	log.Debug("control socket", "socket", path)
	return srv, nil
}
