package daemon

import (
	"context"
	"log/slog"
	"sync"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/control"
	"github.com/reactive-ccm/ccm/engine/daemon/metrics"
)

// serveMetrics listens on c.Metrics, when given, and has the engine's
// runs counted; an address that cannot be opened is BadInput. The
// endpoint answers once serve is called, when d has its engine and
// reloader: a scrape before then waits in the listener's queue rather
// than meet a daemon half built.
func serveMetrics(ctx context.Context, wg *sync.WaitGroup, c Config, d *watched, opts *engine.Options, log *slog.Logger) (serve func(), err error) {
	if c.Metrics == "" {
		return func() {}, nil
	}
	ln, err := metrics.Listen(c.Metrics)
	if err != nil {
		return nil, &BadInput{err}
	}
	m := metrics.New(d, metrics.Options{PerResource: c.MetricsPerResource, Version: c.Version})
	opts.Observe = m.Observe
	return func() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := m.Serve(ctx, ln); err != nil {
				log.Error("metrics endpoint stopped", "error", err)
			}
		}()
		log.Info("serving metrics", "addr", ln.Addr().String())
	}, nil
}

// serveControl opens the control socket and serves it until ctx ends. A
// required socket (named on purpose) that cannot be opened is BadInput;
// another only a warning, so ccm still runs where /run/ccm cannot be
// made (as another user than root).
func serveControl(ctx context.Context, wg *sync.WaitGroup, c Config, d *watched, log *slog.Logger) (*control.Server, error) {
	if c.Socket == "" {
		return nil, nil
	}
	srv, err := control.Listen(c.Socket, d, log)
	if err != nil {
		if c.SocketRequired {
			return nil, &BadInput{err}
		}
		log.Warn("no control socket; ccm status, events, pause and recheck will not reach this daemon", "error", err)
		return nil, nil
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := srv.Serve(ctx); err != nil {
			log.Error("control socket stopped", "socket", c.Socket, "error", err)
		}
	}()
	log.Debug("control socket", "socket", c.Socket)
	return srv, nil
}
