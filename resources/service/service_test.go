package service_test

import (
	"bufio"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"github.com/reactive-ccm/ccm/resources/service"
	"github.com/reactive-ccm/ccm/watchers/systemd/systemdtest"
)

func TestMain(m *testing.M) { os.Exit(systemdtest.Main(m)) }

const (
	sleeper   = "[Unit]\nDescription=ccm service test\n[Service]\nExecStart=/bin/sleep infinity\n[Install]\nWantedBy=multi-user.target\n"
	noInstall = "[Service]\nExecStart=/bin/sleep infinity\n"
)

// unit writes a unit into the suite's systemd, optionally starts it, and
// stops and disables it when the test ends.
func unit(t testing.TB, name, content string, started bool) *systemdtest.Systemd {
	t.Helper()
	sd := systemdtest.Require(t)
	sd.Install(t, name, content)
	if started {
		if _, err := sd.Systemctl(t.Context(), "start", name); err != nil {
			t.Fatal(err)
		}
	}
	return sd
}

// prop reads one unit property through systemctl inside the namespace.
func prop(t testing.TB, sd *systemdtest.Systemd, unit, name string) string {
	t.Helper()
	out, err := sd.Systemctl(t.Context(), "show", "--property="+name, "--value", unit)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(out)
}

// build makes a service from its name and properties.
var build = resourcetest.Builder("service")

func TestConverge(t *testing.T) {
	tests := []struct {
		name     string
		unit     string
		content  string
		started  bool
		props    string
		wantProp map[string]string
	}{
		{"starts a stopped service", "ccm-svc-start", sleeper, false, "ensure: running",
			map[string]string{"ActiveState": "active"}},
		{"starts with ensure defaulted", "ccm-svc-default", sleeper, false, "",
			map[string]string{"ActiveState": "active"}},
		{"stops a running service", "ccm-svc-stop", sleeper, true, "ensure: stopped",
			map[string]string{"ActiveState": "inactive"}},
		{"enables a service", "ccm-svc-enable", sleeper, true, "enable: true",
			map[string]string{"UnitFileState": "enabled", "ActiveState": "active"}},
		{"disables a service and stops it", "ccm-svc-disable", sleeper, true, "{ensure: stopped, enable: false}",
			map[string]string{"UnitFileState": "disabled", "ActiveState": "inactive"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sd := unit(t, tt.unit+".service", tt.content, tt.started)
			if tt.name == "disables a service and stops it" {
				if _, err := sd.Systemctl(t.Context(), "enable", tt.unit); err != nil {
					t.Fatal(err)
				}
			}
			r := build(t, tt.unit, tt.props)
			out := resourcetest.Converge(t.Context(), t, r, false, false)
			if !out.Applied || !out.Change.Changed || !out.After.Desired {
				t.Fatalf("first converge = %+v, want applied, changed and desired", out)
			}
			for k, want := range tt.wantProp {
				if got := prop(t, sd, tt.unit+".service", k); got != want {
					t.Errorf("%s = %q, want %q", k, got, want)
				}
			}
			if again := resourcetest.Converge(t.Context(), t, r, false, false); again.Applied {
				t.Fatalf("second converge applied again: %+v", again)
			}
		})
	}
}

func TestEnableWritesLinksInsideTheNamespace(t *testing.T) {
	sd := unit(t, "ccm-svc-links.service", sleeper, false)
	resourcetest.Converge(t.Context(), t, build(t, "ccm-svc-links", "{ensure: stopped, enable: true}"), false, false)
	link := sd.UnitPath("multi-user.target.wants/ccm-svc-links.service")
	if _, err := os.Lstat(link); err != nil {
		t.Fatalf("enable made no link: %v", err)
	}
	if _, err := os.Lstat("/etc/systemd/system/multi-user.target.wants/ccm-svc-links.service"); err == nil {
		t.Fatal("enable wrote into the host's /etc/systemd/system")
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name, unit, content, props string
		want                       error
		wantMsg                    string
	}{
		{"unknown unit", "ccm-svc-nonexistent", "", "", service.ErrUnknownUnit,
			"unit not found: systemd has no unit ccm-svc-nonexistent.service"},
		{"a start that fails", "ccm-svc-false", "[Service]\nType=oneshot\nExecStart=/bin/false\n", "", service.ErrJobFailed,
			"starting ccm-svc-false.service: job failed; see journalctl -u ccm-svc-false.service (Result exit-code)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.content != "" {
				unit(t, tt.unit+".service", tt.content, false)
			} else {
				systemdtest.Require(t)
			}
			_, err := resources.Converge(t.Context(), build(t, tt.unit, tt.props), false, false)
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.wantMsg) {
				t.Fatalf("error = %v, want %v containing %q", err, tt.want, tt.wantMsg)
			}
		})
	}
}

// TestNoop checks that noop reports every change and makes none: the
// unit keeps its process, its links and its pending reload (a reload
// would clear NeedDaemonReload).
func TestNoop(t *testing.T) {
	tests := []struct {
		name, props string
		refresh     bool
		wantMsg     string
	}{
		{"stop and enable", "{ensure: stopped, enable: true}", false, "Would have stopped; Would have enabled"},
		{"restart on refresh", "ensure: running", true, "Would have restarted"},
		{"disable", "enable: false", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const name = "ccm-svc-noop.service"
			sd := unit(t, name, sleeper, true)
			// Editing the loaded unit's file makes systemd want a reload.
			if err := sd.WriteUnit(name, sleeper+"# edited\n"); err != nil {
				t.Fatal(err)
			}
			pid := prop(t, sd, name, "MainPID")
			before := prop(t, sd, name, "UnitFileState")
			if prop(t, sd, name, "NeedDaemonReload") != "yes" {
				t.Fatal("editing the unit file did not make systemd want a reload")
			}
			out := resourcetest.Converge(t.Context(), t, build(t, name, tt.props), tt.refresh, true)
			if tt.wantMsg != "" && (!out.Change.Changed || out.Change.NoopMessage != tt.wantMsg) {
				t.Fatalf("change = %+v, want changed with %q", out.Change, tt.wantMsg)
			}
			if tt.wantMsg == "" && out.Applied {
				t.Fatalf("change = %+v for a disabled unit, want none", out.Change)
			}
			for k, want := range map[string]string{"MainPID": pid, "UnitFileState": before, "NeedDaemonReload": "yes"} {
				if got := prop(t, sd, name, k); got != want {
					t.Errorf("after noop %s = %q, want %q", k, got, want)
				}
			}
		})
	}
}

func TestRefresh(t *testing.T) {
	tests := []struct {
		name          string
		started       bool
		props         string
		wantRefreshed bool
		wantActive    string
		wantNewPID    bool
	}{
		{"restarts a running service", true, "ensure: running", true, "active", true},
		{"starts a stopped service instead of restarting it", false, "ensure: running", true, "active", true},
		{"is ignored when ensure is stopped", false, "ensure: stopped", false, "inactive", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const name = "ccm-svc-refresh.service"
			sd := unit(t, name, sleeper, tt.started)
			pid := prop(t, sd, name, "MainPID")
			starts := prop(t, sd, name, "ExecMainStartTimestampMonotonic")
			out := resourcetest.Converge(t.Context(), t, build(t, name, tt.props), true, false)
			if out.Change.Refreshed != tt.wantRefreshed || out.Change.Changed != tt.wantRefreshed {
				t.Fatalf("change = %+v, want refreshed and changed = %v", out.Change, tt.wantRefreshed)
			}
			if got := prop(t, sd, name, "ActiveState"); got != tt.wantActive {
				t.Fatalf("ActiveState = %q, want %q", got, tt.wantActive)
			}
			if newPID := prop(t, sd, name, "MainPID"); (newPID != pid) != tt.wantNewPID {
				t.Fatalf("MainPID %s -> %s, want a new process = %v", pid, newPID, tt.wantNewPID)
			}
			if tt.wantNewPID && prop(t, sd, name, "ExecMainStartTimestampMonotonic") == starts {
				t.Fatal("the service was not started again")
			}
		})
	}
}

// TestRefreshRunsTheEditedUnit checks that a refresh after the unit's
// file changed reloads systemd first, so the restart runs the new file.
func TestRefreshRunsTheEditedUnit(t *testing.T) {
	const name = "ccm-svc-edited.service"
	sd := unit(t, name, sleeper, true)
	edited := strings.Replace(sleeper, "sleep infinity", "sleep 86400", 1)
	if err := sd.WriteUnit(name, edited); err != nil {
		t.Fatal(err)
	}
	resourcetest.Converge(t.Context(), t, build(t, name, ""), true, false)
	if got := prop(t, sd, name, "NeedDaemonReload"); got != "no" {
		t.Fatalf("NeedDaemonReload = %q after the refresh, want no", got)
	}
	if got := prop(t, sd, name, "ExecStart"); !strings.Contains(got, "86400") {
		t.Fatalf("ExecStart = %q, want the edited command", got)
	}
}

// TestStartWaitsForAStopInProgress checks that repairing a service an
// operator is stopping does not cancel the operator's stop job.
func TestStartWaitsForAStopInProgress(t *testing.T) {
	const name = "ccm-svc-stopping.service"
	// ExecStop says on a FIFO (the namespace shares the host's /tmp) that
	// the unit is deactivating, then keeps the stop going for a while. Both
	// ends open it read-write, so that no open waits for the other end
	// (the stop at the test's end has no reader).
	fifo := filepath.Join(t.TempDir(), "stopping")
	resourcetest.FIFO(t, fifo)
	stopping, err := os.OpenFile(fifo, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer stopping.Close()
	sd := unit(t, name, "[Service]\nExecStart=/bin/sleep infinity\nExecStop=/bin/sh -c 'echo stopping 1<>"+fifo+"; exec sleep 0.5'\n", true)
	stopped := make(chan error, 1)
	go func() {
		_, err := sd.Systemctl(context.WithoutCancel(t.Context()), "stop", name)
		stopped <- err
	}()
	if err := stopping.SetReadDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, err := bufio.NewReader(stopping).ReadString('\n'); err != nil {
		t.Fatalf("ExecStop did not run: %v", err)
	}
	resourcetest.Converge(t.Context(), t, build(t, name, ""), false, false)
	if err := <-stopped; err != nil {
		t.Fatalf("the operator's stop failed: %v", err)
	}
	if got := prop(t, sd, name, "ActiveState"); got != "active" {
		t.Fatalf("ActiveState = %q, want active", got)
	}
}
