package sysctl_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"github.com/reactive-ccm/ccm/resources/resourcetest/sandbox"
	"github.com/reactive-ccm/ccm/resources/sysctl"
)

const forward = "/proc/sys/net/ipv4/ip_forward"

// set writes a parameter's file, as `sysctl -w` would.
func set(t *testing.T, path, value string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(value), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestConvergesOnce(t *testing.T) {
	sandbox.Require(t)
	set(t, forward, "0")
	r := resourcetest.MustBuild(t, "sysctl", "net.ipv4.ip_forward", "value: 1", t.TempDir()).Resource
	out := resourcetest.Converge(t.Context(), t, r, false, false)
	if !out.Change.Changed || out.Before.Ensure != "0" || out.After.Ensure != "1" || out.Before.Reason() != "value 0 → 1" {
		t.Fatalf("first run %+v, want value 0 → 1", out)
	}
	if got := resourcetest.ReadFile(t, forward); got != "1\n" {
		t.Errorf("ip_forward holds %q", got)
	}
	if again := resourcetest.Converge(t.Context(), t, r, false, false); again.Applied {
		t.Errorf("second run %+v, want nothing to do", again)
	}
}

func TestNoopChangesNothing(t *testing.T) {
	sandbox.Require(t)
	set(t, forward, "0")
	r := resourcetest.MustBuild(t, "sysctl", "net.ipv4.ip_forward", "value: 1\npersist: true", t.TempDir()).Resource
	out := resourcetest.Converge(t.Context(), t, r, false, true)
	if want := "Would have set net.ipv4.ip_forward to 1 and written /etc/sysctl.d/zz-ccm-net.ipv4.ip_forward.conf"; out.Change.NoopMessage != want {
		t.Errorf("noop message %q, want %q", out.Change.NoopMessage, want)
	}
	if got := resourcetest.ReadFile(t, forward); got != "0\n" || resourcetest.Exists("/etc/sysctl.d/zz-ccm-net.ipv4.ip_forward.conf") {
		t.Errorf("noop changed the host: ip_forward %q", got)
	}
}

// TestWordsCompareAsTheKernelPrintsThem: the kernel separates a port
// range's words by a tab.
func TestWordsCompareAsTheKernelPrintsThem(t *testing.T) {
	sandbox.Require(t)
	r := resourcetest.MustBuild(t, "sysctl", "net.ipv4.ip_local_port_range", "value: \"40000   50000\"", t.TempDir()).Resource
	resourcetest.Converge(t.Context(), t, r, false, false)
	if got := resourcetest.ReadFile(t, "/proc/sys/net/ipv4/ip_local_port_range"); got != "40000\t50000\n" {
		t.Errorf("port range holds %q", got)
	}
	if again := resourcetest.Converge(t.Context(), t, r, false, false); again.Applied {
		t.Errorf("second run %+v, want nothing to do", again)
	}
}

func TestPersist(t *testing.T) {
	sandbox.Require(t)
	const dropIn = "/etc/sysctl.d/zz-ccm-net.ipv4.conf.lo.forwarding.conf"
	r := resourcetest.MustBuild(t, "sysctl", "net.ipv4.conf.lo.forwarding", "value: 1\npersist: true", t.TempDir()).Resource
	resourcetest.Converge(t.Context(), t, r, false, false)
	if got, want := resourcetest.ReadFile(t, dropIn), "# Managed by ccm (sysctl#net.ipv4.conf.lo.forwarding)\nnet.ipv4.conf.lo.forwarding = 1\n"; got != want {
		t.Errorf("drop-in holds %q, want %q", got, want)
	}
	resourcetest.WriteFile(t, dropIn, "net.ipv4.conf.lo.forwarding = 0\n", 0o644)
	out := resourcetest.Converge(t.Context(), t, r, false, false)
	if out.Before.Reason() != "persist other content → "+dropIn+" (it sets 0)" {
		t.Errorf("drift of the drop-in reported as %q", out.Before.Reason())
	}
}

func TestUnknownKey(t *testing.T) {
	sandbox.Require(t)
	r := resourcetest.MustBuild(t, "sysctl", "net.ipv4.conf.ccm0.forwarding", "value: 1", t.TempDir()).Resource
	if _, err := resources.Converge(t.Context(), r, false, false); !errors.Is(err, sysctl.ErrNoKey) {
		t.Errorf("converge of a missing parameter: %v, want ErrNoKey", err)
	}
}

func TestValidation(t *testing.T) {
	tests := []struct{ name, key, props, want string }{
		{"value required", "net.ipv4.ip_forward", "persist: true", "value is required"},
		{"bad key", "net..ipv4", "value: 1", "is not a kernel parameter's name"},
		{"path in key", "../etc/passwd", "value: 1", "is not a kernel parameter's name"},
		{"two lines", "kernel.x", "value: \"1\\n2\"", "must be one line"},
		{"bad interval", "kernel.x", "value: 1\npoll_interval: often", "is not a duration"},
		{"short interval", "kernel.x", "value: 1\npoll_interval: 1ms", "shorter than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := resourcetest.BuildError(t, "sysctl", tt.key, tt.props, t.TempDir()); !strings.Contains(got, tt.want) {
				t.Errorf("error %q, want it to contain %q", got, tt.want)
			}
		})
	}
}
