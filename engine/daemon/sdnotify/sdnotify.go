// Package sdnotify speaks systemd's notify protocol for a watching
// daemon run as a Type=notify service: READY=1 after the first full
// convergence, a STATUS= line after every settle, RELOADING=1 and READY=1
// around manifest reloads, STOPPING=1 on shutdown, and WATCHDOG=1 only
// while the engine's scheduler answers. Outside systemd (no
// NOTIFY_SOCKET) it sends nothing.
package sdnotify

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/coreos/go-systemd/v22/daemon"
	"github.com/reactive-ccm/ccm/engine"
)

// Notifier tells systemd how the daemon is doing.
type Notifier struct {
	log *slog.Logger
	// status is the STATUS= line of a state: "12 resources: 11
	// converged, 1 failed".
	status func(engine.State) string

	mu    sync.Mutex
	ready bool // READY=1 was sent
}

// New returns a notifier that logs to log what systemd did not receive,
// and describes a state with status.
func New(log *slog.Logger, status func(engine.State) string) *Notifier {
	return &Notifier{log: log, status: status}
}

// send delivers one notification; failures are logged, since systemd
// acts on what it does not receive (a missed watchdog kills ccm).
func (n *Notifier) send(state string) {
	if _, err := daemon.SdNotify(false, state); err != nil {
		n.log.Warn("notifying systemd", "state", state, "error", err)
	}
}

// Settled reports the engine's standing; the first call also says the
// daemon is ready.
func (n *Notifier) Settled(st engine.State) {
	msg := "STATUS=" + n.status(st)
	n.mu.Lock()
	if !n.ready {
		msg = daemon.SdNotifyReady + "\n" + msg
		n.ready = true
	}
	n.mu.Unlock()
	n.send(msg)
}

// Reloading wraps a manifest reload: systemd shows the unit as reloading
// until the reload is over.
func (n *Notifier) Reloading(reload func()) {
	// systemd wants the CLOCK_MONOTONIC time of the reload with RELOADING=1.
	n.send(daemon.SdNotifyReloading + "\n" + daemon.SdNotifyMonotonicUsec())
	defer n.send(daemon.SdNotifyReady)
	reload()
}

// Start runs the watchdog and says STOPPING=1 once ctx ends (SIGTERM).
func (n *Notifier) Start(ctx context.Context, e *engine.Engine) {
	go n.watchdog(ctx, e)
	go func() {
		<-ctx.Done()
		n.send(daemon.SdNotifyStopping)
	}()
}

// watchdog pings systemd's watchdog at half its interval for as long as
// the engine's scheduler answers within that half; a hung scheduler stops
// the pings and systemd restarts ccm. It returns when ctx ends, or at once
// when the unit has no WatchdogSec=.
func (n *Notifier) watchdog(ctx context.Context, e *engine.Engine) {
	interval, err := daemon.SdWatchdogEnabled(false)
	if err != nil {
		n.log.Warn("reading the systemd watchdog settings", "error", err)
		return
	}
	if interval == 0 {
		return
	}
	tick := time.NewTicker(interval / 2)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		pctx, cancel := context.WithTimeout(ctx, interval/2)
		err := e.Ping(pctx)
		cancel()
		if err != nil {
			n.log.Error("the scheduler did not answer; withholding the systemd watchdog ping", "error", err)
			continue
		}
		n.send(daemon.SdNotifyWatchdog)
	}
}
