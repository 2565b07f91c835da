package metrics_test

import (
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine/daemon/metrics"
	"github.com/reactive-ccm/ccm/engine/daemon/status"
)

type source struct{}

func (source) Counts() status.Counts { return status.Counts{} }
func (source) Health() status.Daemon { return status.Daemon{} }
func (source) Status() status.Report { return status.Report{} }

// counting is a listener that records how many of its connections are
// open at once, at most, and signals each one closed.
type counting struct {
	net.Listener
	mu         sync.Mutex
	open, peak int
	closed     chan struct{}
}

func (c *counting) Accept() (net.Conn, error) {
	conn, err := c.Listener.Accept()
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.open++
	c.peak = max(c.peak, c.open)
	c.mu.Unlock()
	return &countedConn{Conn: conn, l: c}, nil
}

type countedConn struct {
	net.Conn
	l    *counting
	once sync.Once
}

func (c *countedConn) Close() error {
	c.once.Do(func() {
		c.l.mu.Lock()
		c.l.open--
		c.l.mu.Unlock()
		c.l.closed <- struct{}{}
	})
	return c.Conn.Close()
}

// TestServeBoundsConnectionsAndClosesSilentOnes: clients that connect
// and send nothing hold at most Limits.Conns connections of the server's
// at once, and each is closed when its header timeout expires.
func TestServeBoundsConnectionsAndClosesSilentOnes(t *testing.T) {
	const clients, limit = 12, 3
	m := metrics.New(source{}, metrics.Options{Limits: metrics.Limits{Conns: limit, ReadHeader: 200 * time.Millisecond, Read: time.Hour, Write: time.Hour, Idle: time.Hour}})
	ln, err := metrics.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cl := &counting{Listener: ln, closed: make(chan struct{}, clients+1)}
	go func() { _ = m.Serve(t.Context(), cl) }()
	var conns []net.Conn
	for range clients {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns = append(conns, c)
	}
	for i, c := range conns {
		if _, err := c.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
			t.Fatalf("client %d: read %v, want the server to close the silent connection", i, err)
		}
	}
	for range clients {
		<-cl.closed
	}
	cl.mu.Lock()
	peak := cl.peak
	cl.mu.Unlock()
	if peak > limit {
		t.Fatalf("%d connections served at once, want at most %d", peak, limit)
	}
	resp, err := http.Get("http://" + ln.Addr().String() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("a scrape after the silent clients: %s", resp.Status)
	}
}
