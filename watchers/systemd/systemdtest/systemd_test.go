package systemdtest

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

func TestHarness(t *testing.T) {
	sd := Require(t)
	ctx := t.Context()
	const unit = "ccm-harness-sleep.service"
	if err := sd.WriteUnit(unit, "[Service]\nExecStart=/bin/sleep infinity\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat("/etc/systemd/system/" + unit); err == nil {
		t.Fatalf("unit file leaked into the host's /etc/systemd/system")
	}
	t.Run("starts a unit written into the private unit directory", func(t *testing.T) {
		if _, err := sd.Systemctl(ctx, "start", unit); err != nil {
			t.Fatal(err)
		}
		out, _ := sd.Systemctl(ctx, "is-active", unit)
		if strings.TrimSpace(out) != "active" {
			t.Fatalf("is-active = %q", out)
		}
	})
	t.Run("maps the main PID to a host process", func(t *testing.T) {
		pid, err := sd.MainPID(ctx, unit)
		if err != nil {
			t.Fatal(err)
		}
		cmd, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
		if err != nil || !strings.HasPrefix(string(cmd), "/bin/sleep") {
			t.Fatalf("PID %d is %q (%v), want /bin/sleep", pid, cmd, err)
		}
		if err := syscall.Kill(pid, 0); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("masks the units that touch the host", func(t *testing.T) {
		out, _ := sd.Systemctl(ctx, "is-enabled", "systemd-tmpfiles-setup.service")
		if strings.TrimSpace(out) != "masked-runtime" {
			t.Fatalf("systemd-tmpfiles-setup.service is %q, want masked-runtime", out)
		}
	})
}

// TestInstallLeavesNothingRunning: a unit Install wrote is loaded, and
// stopped and disabled when the test that installed it ends.
func TestInstallLeavesNothingRunning(t *testing.T) {
	sd := Require(t)
	const unit = "ccm-harness-install.service"
	t.Run("installed", func(t *testing.T) {
		sd.Install(t, unit, "[Service]\nExecStart=/bin/sleep infinity\n[Install]\nWantedBy=multi-user.target\n")
		if _, err := sd.Systemctl(t.Context(), "enable", "--now", unit); err != nil {
			t.Fatal(err)
		}
	})
	for _, q := range []string{"is-active", "is-enabled"} {
		if out, err := sd.Systemctl(t.Context(), q, unit); err == nil {
			t.Errorf("%s after the test: %s", q, out)
		}
	}
}
