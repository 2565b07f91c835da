package systemd_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	sddbus "github.com/coreos/go-systemd/v22/dbus"
	"github.com/reactive-ccm/ccm/watchers/systemd"
	"github.com/reactive-ccm/ccm/watchers/systemd/systemdtest"
)

func TestMain(m *testing.M) { os.Exit(systemdtest.Main(m)) }

const sleepUnit = "[Unit]\nDescription=ccm hub test\n[Service]\nExecStart=/bin/sleep infinity\n"

// counter is a notify function that counts calls and signals each one.
type counter struct {
	n  atomic.Int64
	ch chan struct{}
}

func newCounter() *counter { return &counter{ch: make(chan struct{}, 1)} }

func (c *counter) notify() {
	c.n.Add(1)
	select {
	case c.ch <- struct{}{}:
	default:
	}
}

// wait fails the test unless notify is called within timeout.
func (c *counter) wait(t *testing.T, what string) {
	t.Helper()
	select {
	case <-c.ch:
	case <-time.After(10 * time.Second):
		t.Fatalf("not notified of %s within 10s", what)
	}
}

// quiet returns once every notification already due has come, and drops
// the pending one, so that wait sees only what follows.
func (c *counter) quiet(t *testing.T, h *systemd.Hub) {
	t.Helper()
	syncHub(t, h)
	select {
	case <-c.ch:
	default:
	}
}

// syncHub waits for the hub to apply every Watch and cancel made so far and
// to deliver every notification systemd's signals so far are due.
func syncHub(t *testing.T, h *systemd.Hub) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if err := h.Sync(ctx); err != nil {
		t.Fatal(err)
	}
}

// setup boots nothing: it uses the suite's systemd, writes and starts a
// unit, and returns a fresh hub on the namespace's bus, with the
// connection it made.
func setup(t *testing.T, unit string, opts systemd.Options) (*systemdtest.Systemd, *systemd.Hub, *sddbus.Conn) {
	t.Helper()
	sd := systemdtest.Require(t)
	if err := sd.WriteUnit(unit, sleepUnit); err != nil {
		t.Fatal(err)
	}
	if _, err := sd.Systemctl(t.Context(), "start", unit); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// The harness outlives the test: leave no unit running.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(t.Context()), 10*time.Second)
		defer cancel()
		if _, err := sd.Systemctl(ctx, "stop", unit); err != nil {
			t.Error(err)
		}
	})
	h := systemd.New(opts)
	t.Cleanup(h.Close)
	conn, err := h.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return sd, h, conn
}

func TestHubSeesExternalChanges(t *testing.T) {
	tests := []struct {
		name  string
		unit  string
		opts  systemd.Options
		drift func(t *testing.T, sd *systemdtest.Systemd, unit string)
	}{
		{"systemctl stop from outside", "ccm-hub-stop.service", systemd.Options{}, systemctlStop},
		{"kill -9 of the main process", "ccm-hub-kill.service", systemd.Options{}, killMain},
		{"systemctl stop seen by polling", "ccm-hub-poll.service", systemd.Options{Poll: 50 * time.Millisecond}, systemctlStop},
		{"daemon-reload", "ccm-hub-reload.service", systemd.Options{}, func(t *testing.T, sd *systemdtest.Systemd, _ string) {
			if _, err := sd.Systemctl(t.Context(), "daemon-reload"); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sd, h, _ := setup(t, tt.unit, tt.opts)
			c := newCounter()
			defer h.Watch(tt.unit, c.notify)()
			c.quiet(t, h)
			tt.drift(t, sd, tt.unit)
			c.wait(t, tt.name)
		})
	}
}

func systemctlStop(t *testing.T, sd *systemdtest.Systemd, unit string) {
	t.Helper()
	if _, err := sd.Systemctl(t.Context(), "stop", unit); err != nil {
		t.Fatal(err)
	}
}

func killMain(t *testing.T, sd *systemdtest.Systemd, unit string) {
	t.Helper()
	pid, err := sd.MainPID(t.Context(), unit)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
}

// TestHubSurvivesLosingTheBus: after systemd re-executes, or the bus
// restarts, the hub is notified, sees a stop, and its connection answers.
func TestHubSurvivesLosingTheBus(t *testing.T) {
	for _, tc := range []struct {
		unit, what string
		systemctl  []string
	}{
		{"ccm-hub-reexec.service", "the re-execution", []string{"daemon-reexec"}},
		{"ccm-hub-bus.service", "the reconnection", []string{"restart", "dbus.service"}},
	} {
		t.Run(tc.what, func(t *testing.T) {
			sd, h, _ := setup(t, tc.unit, systemd.Options{})
			c := newCounter()
			defer h.Watch(tc.unit, c.notify)()
			c.quiet(t, h)
			if _, err := sd.Systemctl(t.Context(), tc.systemctl...); err != nil {
				t.Fatal(err)
			}
			c.wait(t, tc.what)
			c.quiet(t, h)
			systemctlStop(t, sd, tc.unit)
			c.wait(t, "a stop after "+tc.what)
			conn, err := h.Conn(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := conn.GetUnitPropertiesContext(t.Context(), tc.unit); err != nil {
				t.Fatalf("calls after %s: %v", tc.what, err)
			}
		})
	}
}

// TestHubNoFeedbackLoop checks a unit that systemd would garbage-collect
// once stopped: a watcher that reads the unit on every notification (as
// the engine's check does) must settle instead of loading it again and
// again (coreos/go-systemd#502).
func TestHubNoFeedbackLoop(t *testing.T) {
	const unit = "ccm-hub-gc.service"
	sd, h, conn := setup(t, unit, systemd.Options{})
	c, read := newCounter(), newCounter()
	// The check reads the unit outside notify, which must return quickly;
	// read counts the reads that are over.
	check := func() {
		c.notify()
		go func() {
			defer read.notify()
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()
			if _, err := conn.GetUnitPropertiesContext(ctx, unit); err != nil {
				t.Errorf("the check's read: %v", err)
			}
		}()
	}
	defer h.Watch(unit, check)()
	c.quiet(t, h)
	before := c.n.Load()
	systemctlStop(t, sd, unit)
	// Each round waits for the checks started so far, then lets the hub
	// deliver what they made systemd send: the stop has settled once a
	// round brings no notification.
	const rounds = 10
	last := before
	for round := 0; ; round++ {
		for read.n.Load() < c.n.Load() {
			read.wait(t, "the end of a check's read")
		}
		syncHub(t, h)
		n := c.n.Load()
		if n == last {
			break
		}
		if round == rounds {
			t.Fatalf("%d notifications after one stop, still coming after %d rounds of checks", n-before, rounds)
		}
		last = n
	}
	if last == before {
		t.Fatal("the stop was not notified")
	}
}

func TestHubCancel(t *testing.T) {
	const unit = "ccm-hub-cancel.service"
	sd, h, conn := setup(t, unit, systemd.Options{})
	c := newCounter()
	cancel := h.Watch(unit, c.notify)
	syncHub(t, h)
	if !referenced(t, conn, unit) {
		t.Fatalf("%s: the hub holds no reference on a watched unit", unit)
	}
	cancel()
	syncHub(t, h)
	if referenced(t, conn, unit) {
		t.Fatalf("%s: the hub still references the unit after cancel", unit)
	}
	before := c.n.Load()
	systemctlStop(t, sd, unit)
	syncHub(t, h)
	if n := c.n.Load() - before; n != 0 {
		t.Fatalf("notified %d times after cancel", n)
	}
}

// referenced reports whether the unit's Refs property lists a client.
func referenced(t *testing.T, conn *sddbus.Conn, unit string) bool {
	t.Helper()
	p, err := conn.GetUnitPropertyContext(t.Context(), unit, "Refs")
	if err != nil {
		t.Fatal(err)
	}
	refs, _ := p.Value.Value().([]string)
	return len(refs) > 0
}

func TestHubWithoutBus(t *testing.T) {
	h := systemd.New(systemd.Options{Dial: systemd.DialAddress("unix:path=/nonexistent/system_bus_socket")})
	t.Cleanup(h.Close)
	t.Run("ready at once when nothing is watched", func(t *testing.T) {
		if err := h.Ready(t.Context()); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("ready after the first failed attempt", func(t *testing.T) {
		defer h.Watch("nginx.service", func() {})()
		if err := h.Ready(t.Context()); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("calls fail with the reason", func(t *testing.T) {
		_, err := h.Conn(t.Context())
		if !errors.Is(err, systemd.ErrUnavailable) || !strings.Contains(err.Error(), "/nonexistent/system_bus_socket") {
			t.Fatalf("Conn() error = %v, want ErrUnavailable naming the address", err)
		}
	})
}

// TestHubPollTellsAChangeBeforeItsFirstRead: a polling hub tells a change
// made after Watch returned but before its first poll read the unit.
func TestHubPollTellsAChangeBeforeItsFirstRead(t *testing.T) {
	sd, h, _ := setup(t, "ccm-hub-firstpoll.service", systemd.Options{Poll: time.Hour})
	c := newCounter()
	defer h.Watch("ccm-hub-firstpoll.service", c.notify)()
	systemctlStop(t, sd, "ccm-hub-firstpoll.service")
	syncHub(t, h)
	if c.n.Load() == 0 {
		t.Fatal("the stop between Watch and the first poll was never told")
	}
}
