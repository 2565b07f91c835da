package daemon

import (
	"os"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/control"
	"github.com/reactive-ccm/ccm/engine/daemon/hubs"
	"github.com/reactive-ccm/ccm/engine/daemon/reload"
	"github.com/reactive-ccm/ccm/engine/daemon/status"
)

// watched is the watching engine as the control socket and the metrics
// see it: its status with the process's own health added.
type watched struct {
	*engine.Engine
	hubs    *hubs.Hubs
	reload  *reload.Reloader
	started time.Time
	version string
}

var _ control.Controller = (*watched)(nil)

// Status is the engine's report with the daemon's health.
func (d *watched) Status() status.Report {
	r := d.Engine.Status()
	r.Daemon = d.health(r.Daemon.LastConverged)
	return r
}

// Counts counts the resources by standing, for metrics.
func (d *watched) Counts() status.Counts { return d.Engine.State().Counts }

// Health is the daemon's own state, for metrics.
func (d *watched) Health() status.Daemon { return d.health(d.Engine.LastConverged()) }

func (d *watched) health(lastConverged time.Time) status.Daemon {
	rl := d.reload.Stats()
	h := status.Daemon{
		PID: os.Getpid(), Version: d.version, Started: d.started, Uptime: time.Since(d.started).Seconds(),
		Reloads: rl.Reloads, ReloadFailures: rl.Failures, LastReload: rl.Last, LastConverged: lastConverged,
	}
	h.Watches, h.Polled, h.Overflows = d.hubs.Counts()
	return h
}
