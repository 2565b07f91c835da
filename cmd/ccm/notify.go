package main

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/coreos/go-systemd/v22/daemon"
	"github.com/reactive-ccm/ccm/engine"
)

// sdNotifier speaks systemd's notify protocol for `ccm run --watch` run as
// a Type=notify service: READY=1 after the first full convergence, a
// STATUS= line after every settle, RELOADING=1 and READY=1 around manifest
// reloads, STOPPING=1 on shutdown, and WATCHDOG=1 only while the engine's
// scheduler answers. Outside systemd (no NOTIFY_SOCKET) it sends nothing.
type sdNotifier struct {
	log *slog.Logger

	mu    sync.Mutex
	ready bool // READY=1 was sent
}

func newSDNotifier(log *slog.Logger) *sdNotifier { return &sdNotifier{log: log} }

// send delivers one notification; failures are logged, since systemd
// acts on what it does not receive (a missed watchdog kills ccm).
func (n *sdNotifier) send(state string) {
	if _, err := daemon.SdNotify(false, state); err != nil {
		n.log.Warn("notifying systemd", "state", state, "error", err)
	}
}

// settled reports the engine's standing; the first call also says ccm is
// ready.
func (n *sdNotifier) settled(st engine.State) {
	msg := "STATUS=" + statusLine(st)
	n.mu.Lock()
	if !n.ready {
		msg = daemon.SdNotifyReady + "\n" + msg
		n.ready = true
	}
	n.mu.Unlock()
	n.send(msg)
}

// statusLine is what `systemctl status ccm` shows: "12 resources: 11
// converged, 1 failed".
func statusLine(st engine.State) string { return countsLine(st.Counts(), time.Time{}, time.Time{}) }

// reloading wraps a manifest reload: systemd shows the unit as reloading
// until the reload is over.
func (n *sdNotifier) reloading(reload func()) {
	// systemd wants the CLOCK_MONOTONIC time of the reload with RELOADING=1.
	n.send(daemon.SdNotifyReloading + "\n" + daemon.SdNotifyMonotonicUsec())
	defer n.send(daemon.SdNotifyReady)
	reload()
}

// start runs the watchdog and says STOPPING=1 once ctx ends (SIGTERM).
func (n *sdNotifier) start(ctx context.Context, e *engine.Engine) {
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
func (n *sdNotifier) watchdog(ctx context.Context, e *engine.Engine) {
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
