package metrics

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"golang.org/x/net/netutil"
)

// Limits bound what the clients of the metrics endpoint may hold of the
// daemon: anyone who can reach the address can connect, a local user on
// loopback included, and each connection is a descriptor and memory of
// the process that repairs the host.
type Limits struct {
	// Conns is how many connections are served at once. Others wait in
	// the kernel's listen queue, holding no descriptor of ccm's, until one
	// ends.
	Conns int
	// ReadHeader bounds the wait for a request's headers, Read for the
	// whole request, Write for the answer, and Idle the wait for the next
	// request on a kept-alive connection.
	ReadHeader, Read, Write, Idle time.Duration
}

// DefaultLimits serve a few scrapers, each scraping once a second or
// less often, and close a connection that sends nothing within seconds.
var DefaultLimits = Limits{Conns: 16, ReadHeader: 5 * time.Second, Read: 10 * time.Second, Write: 30 * time.Second, Idle: 30 * time.Second}

// maxHeaderBytes bounds a request's headers: a scrape sends a few hundred
// bytes.
const maxHeaderBytes = 8 << 10

// Listen opens addr for scrapes, so a bad address is reported at start;
// Serve answers on it.
func Listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("metrics: listening on %s: %w", addr, err)
	}
	return ln, nil
}

// Serve answers GET /metrics on ln until ctx ends, within the limits of
// Options.Limits.
func (m *Metrics) Serve(ctx context.Context, ln net.Listener) error {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler())
	l := m.limits
	srv := &http.Server{
		Handler: mux, ReadHeaderTimeout: l.ReadHeader, ReadTimeout: l.Read, WriteTimeout: l.Write, IdleTimeout: l.Idle,
		MaxHeaderBytes: maxHeaderBytes,
	}
	stop := context.AfterFunc(ctx, func() { srv.Close() })
	defer stop()
	if err := srv.Serve(netutil.LimitListener(ln, l.Conns)); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
