package daemon

import (
	"context"
	"log/slog"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/reload"
	"github.com/reactive-ccm/ccm/engine/daemon/sdnotify"
	"github.com/reactive-ccm/ccm/engine/fleet/report"
)

// settled is what the engine calls each time it settles: systemd hears
// of it, the fleet's report and next too, and the log says so (at info
// level the first time).
func settled(ctx context.Context, log *slog.Logger, sdn *sdnotify.Notifier, rep *report.Reporter, next func(engine.State)) func(engine.State) {
	first := true
	return func(st engine.State) {
		sdn.Settled(st)
		if rep != nil {
			rep.Settled(st)
		}
		lvl := slog.LevelDebug
		if first {
			lvl, first = slog.LevelInfo, false
		}
		log.Log(ctx, lvl, "converged", "resources", st.Resources, "ok", st.Converged,
			"failed", st.Failed, "unhealthy", st.Unhealthy, "rolled_back", st.RolledBack, "blocked", st.Blocked, "contested", st.Contested, "pending", st.Pending)
		if next != nil {
			next(st)
		}
	}
}

// obeySignals obeys c's signals (obey) until ctx ends, counted in wg.
func (c Config) obeySignals(ctx context.Context, wg *sync.WaitGroup, log *slog.Logger, r *reload.Reloader, e *engine.Engine) {
	sig, stop := c.signals()
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer stop()
		obey(ctx, log, sig, r, e, c.Forget)
	}()
}

// signals are c.Signals, else the process's SIGHUP, SIGUSR1 and SIGUSR2
// from now until stop is called.
func (c Config) signals() (sig <-chan os.Signal, stop func()) {
	if c.Signals != nil {
		return c.Signals, func() {}
	}
	ch := make(chan os.Signal, 4)
	signal.Notify(ch, syscall.SIGHUP, syscall.SIGUSR1, syscall.SIGUSR2)
	return ch, func() { signal.Stop(ch) }
}

// obey maps SIGHUP to a reload (the facts gathered again: forget),
// SIGUSR1 to a full re-check and SIGUSR2 to releasing every rolled-back
// resource, until ctx ends.
func obey(ctx context.Context, log *slog.Logger, sig <-chan os.Signal, r *reload.Reloader, e *engine.Engine, forget func()) {
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
			if forget != nil {
				forget()
			}
			r.Force()
		}
	}
}
