package service_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/enginetest"
	_ "github.com/reactive-ccm/ccm/resources/file"
	sdwatch "github.com/reactive-ccm/ccm/watchers/systemd"
	"github.com/reactive-ccm/ccm/watchers/systemd/systemdtest"
)

// These tests run a watching engine against the suite's systemd, wired as
// `ccm run --watch` wires it, and the ccm command itself as a Type=notify
// service inside the namespace.

// watch runs manifest in a watching engine until the test ends, its units
// watched by the process-wide systemd hub, which the suite points at its
// systemd.
func watch(tb testing.TB, manifest string, opts engine.Options) *enginetest.Run {
	tb.Helper()
	hub := sdwatch.Default()
	opts.Watchers.Units, opts.Watchers.Ready = hub.Watch, hub.Ready
	return enginetest.Start(tb, manifest, enginetest.Options{Engine: opts})
}

// buildCCM builds the ccm command into a directory both the host and the
// namespace see (the namespace shares the host's /tmp).
func buildCCM(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "ccm")
	if out, err := exec.CommandContext(t.Context(), "go", "build", "-o", bin, "../../cmd/ccm").CombinedOutput(); err != nil {
		t.Fatalf("building ccm: %v\n%s", err, out)
	}
	return bin
}

// writeManifest writes a manifest into a fresh directory.
func writeManifest(t *testing.T, yaml string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "manifest.yaml")
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// waitUnit waits until cond holds, looking again at each notification
// the process-wide systemd hub gives for unit; each wait is bounded.
func waitUnit(t *testing.T, unit, what string, cond func() bool) {
	t.Helper()
	hub := sdwatch.Default()
	changed := make(chan struct{}, 1)
	defer hub.Watch(unit, func() {
		select {
		case changed <- struct{}{}:
		default:
		}
	})()
	// From here on, every change of the unit is notified.
	if err := hub.Sync(t.Context()); err != nil {
		t.Fatal(err)
	}
	for !cond() {
		select {
		case <-changed:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s did not happen within 10s of the last change of %s", what, unit)
		}
	}
}

func TestWatchRepairsDrift(t *testing.T) {
	const name = "ccm-e2e-repair.service"
	id := "service#" + name
	sd := unit(t, name, sleeper, false)
	w := watch(t, "ccm:\n  resources:\n    - service:\n        - "+name+":\n            ensure: running\n", engine.Options{})
	w.Changed(t, id)
	if got := prop(t, sd, name, "ActiveState"); got != "active" {
		t.Fatalf("after the first convergence ActiveState = %q, want active", got)
	}
	var pid string // the main process before the drift
	drift := func(act func(t *testing.T)) func(t *testing.T) {
		return func(t *testing.T) {
			pid = prop(t, sd, name, "MainPID")
			act(t)
		}
	}
	w.RepairsEach(t, id, []enginetest.Drift{
		{Name: "systemctl stop from outside", Make: drift(func(t *testing.T) {
			if _, err := sd.Systemctl(t.Context(), "stop", name); err != nil {
				t.Fatalf("the operator's stop failed: %v", err)
			}
		})},
		{Name: "kill -9 of the main process", Make: drift(func(t *testing.T) {
			main, err := sd.MainPID(t.Context(), name)
			if err != nil {
				t.Fatal(err)
			}
			if err := syscall.Kill(main, syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
		})},
	}, func(t *testing.T, _ enginetest.Drift) {
		if got := prop(t, sd, name, "ActiveState"); got != "active" {
			t.Errorf("after the repair ActiveState = %q, want active", got)
		}
		if got := prop(t, sd, name, "MainPID"); got == pid {
			t.Errorf("after the repair MainPID is still %s, want a new process", got)
		}
	})
}

// TestWatchRestartsOnConfigChange checks that a service subscribed to the
// file holding its configuration restarts once per change of that file.
func TestWatchRestartsOnConfigChange(t *testing.T) {
	const name = "ccm-e2e-config.service"
	dir := t.TempDir()
	conf, starts := filepath.Join(dir, "app.conf"), filepath.Join(dir, "starts")
	// ExecStartPre has written its line once a start or restart job is over.
	sd := unit(t, name, fmt.Sprintf("[Service]\nExecStartPre=/bin/sh -c 'echo start >> %s'\nExecStart=/bin/sleep infinity\n", starts), false)
	manifest := fmt.Sprintf(`ccm:
  resources:
    - file:
        - %s:
            ensure: present
            content: "setting = 1\n"
            owner: root
            group: root
            mode: "0644"
    - service:
        - %s:
            ensure: running
            subscribe:
              - file#%s
`, conf, name, conf)
	count := func() int {
		b, _ := os.ReadFile(starts)
		return strings.Count(string(b), "start")
	}
	id := "service#" + name
	w := watch(t, manifest, engine.Options{})
	w.Changed(t, id)
	if n := count(); n != 1 {
		t.Fatalf("the first convergence started the service %d times, want 1", n)
	}
	for change := 1; change <= 3; change++ {
		if err := os.WriteFile(conf, []byte(fmt.Sprintf("setting = drift %d\n", change)), 0o644); err != nil {
			t.Fatal(err)
		}
		w.Changed(t, id)
		// A second restart for one change would show here, or in the
		// next change's count.
		if n := count(); n != change+1 {
			t.Fatalf("after change %d the service started %d times, want %d (one start, a restart per change)", change, n, change+1)
		}
	}
	w.Settle(t)
	if n := count(); n != 4 {
		t.Fatalf("the service started %d times for 3 config changes, want 4 (one start, three restarts)", n)
	}
	if got := prop(t, sd, name, "ActiveState"); got != "active" {
		t.Fatalf("ActiveState = %q, want active", got)
	}
}

// TestCCMAsNotifyService runs `ccm run --watch` as a Type=notify service
// with a watchdog inside the suite's systemd, from examples/ccm.service.
func TestCCMAsNotifyService(t *testing.T) {
	const self, managed = "ccm-e2e-self.service", "ccm-e2e-managed.service"
	sd := unit(t, managed, sleeper, false)
	bin := buildCCM(t)
	manifest := writeManifest(t, "ccm:\n  resources:\n    - service:\n        - "+managed+":\n            ensure: running\n")
	// The example unit, pointed at this build and manifest, with a short
	// watchdog.
	example, err := os.ReadFile("../../examples/ccm.service")
	if err != nil {
		t.Fatal(err)
	}
	unit(t, self, strings.NewReplacer("/usr/local/bin/ccm run", bin+" run --state-dir "+t.TempDir(), "/etc/ccm/manifest.yaml", manifest,
		"WatchdogSec=30s", "WatchdogSec=2s").Replace(string(example)), false)
	ctx := t.Context()
	// Type=notify: start returns only once ccm said READY=1.
	if _, err := sd.Systemctl(ctx, "start", self); err != nil {
		t.Fatal(err)
	}
	if got := prop(t, sd, managed, "ActiveState"); got != "active" {
		t.Fatalf("ccm said it was ready before converging: %s is %q", managed, got)
	}
	if got := prop(t, sd, self, "StatusText"); got != "1 resources: 1 converged" {
		t.Fatalf("StatusText = %q, want the resource counts", got)
	}
	if _, err := sd.Systemctl(ctx, "reload", self); err != nil {
		t.Fatal(err)
	}
	pid := prop(t, sd, self, "MainPID")
	waitPings(t, sd, self, 2)
	for k, want := range map[string]string{"ActiveState": "active", "MainPID": pid, "NRestarts": "0"} {
		if got := prop(t, sd, self, k); got != want {
			t.Errorf("after the watchdog periods %s = %q, want %q", k, got, want)
		}
	}
	// The command wires the unit watches the in-process tests above rely
	// on: an operator's stop of the managed service is repaired at once,
	// not at the next poll.
	managedPID := prop(t, sd, managed, "MainPID")
	if _, err := sd.Systemctl(ctx, "stop", managed); err != nil {
		t.Fatal(err)
	}
	waitUnit(t, managed, "the repair of "+managed+" by ccm", func() bool {
		return prop(t, sd, managed, "ActiveState") == "active" && prop(t, sd, managed, "MainPID") != managedPID
	})
	if _, err := sd.Systemctl(ctx, "stop", self); err != nil {
		t.Fatal(err)
	}
	if got := prop(t, sd, self, "Result"); got != "success" {
		t.Fatalf("Result = %q after stop, want success", got)
	}
	if out, err := sd.Run(ctx, "journalctl", "--no-pager", "-o", "cat", "-u", self); err == nil && !strings.Contains(out, "converged") {
		t.Errorf("ccm's log did not reach the journal:\n%s", out)
	}
}

// waitPings waits until systemd has received n more watchdog pings from
// unit's process. systemd tells no one of a ping, so this polls the time
// of the last one it received, within a bound.
func waitPings(t *testing.T, sd *systemdtest.Systemd, unit string, n int) {
	t.Helper()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(10 * time.Second)
	last := prop(t, sd, unit, "WatchdogTimestampMonotonic")
	for seen := 0; seen < n; {
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatalf("%s: %d of %d watchdog pings within 10s (the last at %s µs)", unit, seen, n, last)
		}
		if at := prop(t, sd, unit, "WatchdogTimestampMonotonic"); at != last {
			seen, last = seen+1, at
		}
	}
}
