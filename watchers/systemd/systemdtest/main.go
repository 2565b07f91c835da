package systemdtest

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"
)

var (
	current *Systemd
	skipWhy string
)

// Main boots one systemd for a test binary, points DBUS_SYSTEM_BUS_ADDRESS
// at its bus, runs the tests and stops it. Call it from TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(systemdtest.Main(m)) }
//
// Where the harness cannot run, the tests still run and Require skips
// the ones that need systemd.
func Main(m *testing.M) int {
	if skipWhy = Missing(); skipWhy != "" {
		return m.Run()
	}
	// TestMain is the test binary's main: there is no test context yet.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	sd, err := Boot(ctx)
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	current = sd
	if err := os.Setenv("DBUS_SYSTEM_BUS_ADDRESS", sd.BusAddress()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	code := m.Run()
	if err := sd.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return code
}

// Require returns the suite's systemd, or skips the test saying why
// there is none.
func Require(t testing.TB) *Systemd {
	t.Helper()
	if current == nil {
		if skipWhy == "" {
			skipWhy = "no systemd harness: call systemdtest.Main from TestMain"
		}
		t.Skip("systemd harness not available: " + skipWhy)
	}
	return current
}
