package sysctl_test

import (
	"errors"
	"os"
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
	resourcetest.Rejects(t, "sysctl", []resourcetest.Rejected{
		{Case: "value required", Name: "net.ipv4.ip_forward", Props: "persist: true", Want: "value is required"},
		{Case: "bad key", Name: "net..ipv4", Props: "value: 1", Want: "is not a kernel parameter's name"},
		{Case: "path in key", Name: "../etc/passwd", Props: "value: 1", Want: "is not a kernel parameter's name"},
		{Case: "two lines", Name: "kernel.x", Props: "value: \"1\\n2\"", Want: "must be one line"},
		{Case: "bad interval", Name: "kernel.x", Props: "value: 1\npoll_interval: often", Want: "is not a duration"},
		{Case: "short interval", Name: "kernel.x", Props: "value: 1\npoll_interval: 1ms", Want: "shorter than"},
	})
}
