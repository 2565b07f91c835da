package sdnotify_test

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/sdnotify"
	"github.com/reactive-ccm/ccm/engine/daemon/status"
	"github.com/reactive-ccm/ccm/graph"
	_ "github.com/reactive-ccm/ccm/resources/file"
)

// systemd listens where NOTIFY_SOCKET says, as systemd does for a
// Type=notify unit.
func systemd(t *testing.T) *net.UnixConn {
	t.Helper()
	path := filepath.Join(t.TempDir(), "notify")
	c, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	t.Setenv("NOTIFY_SOCKET", path)
	return c
}

// next reads the next notification.
func next(t *testing.T, c *net.UnixConn) string {
	t.Helper()
	if err := c.SetReadDeadline(time.Now().Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 4096)
	n, err := c.Read(b)
	if err != nil {
		t.Fatal(err)
	}
	return string(b[:n])
}

func statusLine(st engine.State) string { return fmt.Sprintf("%d resources", st.Resources) }

func TestNotifierTellsSystemdReadyStatusAndReloads(t *testing.T) {
	c := systemd(t)
	n := sdnotify.New(slog.New(slog.DiscardHandler), statusLine)
	n.Settled(engine.State{Counts: status.Counts{Resources: 3}})
	if got := next(t, c); got != "READY=1\nSTATUS=3 resources" {
		t.Fatalf("first settle sent %q", got)
	}
	n.Settled(engine.State{Counts: status.Counts{Resources: 4}})
	if got := next(t, c); got != "STATUS=4 resources" {
		t.Fatalf("a later settle sent %q", got)
	}
	reloaded := false
	n.Reloading(func() { reloaded = true })
	if got := next(t, c); !strings.HasPrefix(got, "RELOADING=1\nMONOTONIC_USEC=") || !reloaded {
		t.Fatalf("a reload began with %q (reloaded %v)", got, reloaded)
	}
	if got := next(t, c); got != "READY=1" {
		t.Fatalf("a reload ended with %q", got)
	}
}

// TestWatchdogPingsWhileTheSchedulerAnswers: with WatchdogSec= set, the
// watchdog is pinged while the engine answers, and STOPPING=1 is sent
// once the daemon stops.
func TestWatchdogPingsWhileTheSchedulerAnswers(t *testing.T) {
	c := systemd(t)
	t.Setenv("WATCHDOG_USEC", "200000")
	t.Setenv("WATCHDOG_PID", fmt.Sprint(os.Getpid()))
	dir := t.TempDir()
	m := filepath.Join(dir, "m.yaml")
	src := fmt.Sprintf("- file:\n    - %s: {ensure: directory, owner: root, group: root, mode: \"0755\"}\n", filepath.Join(dir, "d"))
	if err := os.WriteFile(m, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := graph.Load([]string{m}, graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e := engine.New(g, engine.Options{Watch: true, Recheck: -1, Logger: slog.New(slog.DiscardHandler)})
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { defer close(done); _, _ = e.Run(ctx) }()
	n := sdnotify.New(slog.New(slog.DiscardHandler), statusLine)
	n.Start(ctx, e)
	if got := next(t, c); got != "WATCHDOG=1" {
		t.Fatalf("the watchdog got %q", got)
	}
	cancel()
	<-done
	for {
		if got := next(t, c); got == "STOPPING=1" {
			return
		} else if got != "WATCHDOG=1" {
			t.Fatalf("after the stop: %q", got)
		}
	}
}
