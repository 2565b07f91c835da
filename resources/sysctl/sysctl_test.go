package sysctl_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"github.com/reactive-ccm/ccm/resources/resourcetest/sandbox"
	"github.com/reactive-ccm/ccm/resources/sysctl"
)

const forward = "/proc/sys/net/ipv4/ip_forward"

// build makes a sysctl from its key and properties.
var build = resourcetest.Builder("sysctl")

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
	r := build(t, "net.ipv4.ip_forward", "value: 1")
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
	r := build(t, "net.ipv4.ip_forward", "value: 1\npersist: true")
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
	r := build(t, "net.ipv4.ip_local_port_range", "value: \"40000   50000\"")
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
	r := build(t, "net.ipv4.conf.lo.forwarding", "value: 1\npersist: true")
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
	r := build(t, "net.ipv4.conf.ccm0.forwarding", "value: 1")
	if _, err := resources.Converge(t.Context(), r, false, false); !errors.Is(err, sysctl.ErrNoKey) {
		t.Errorf("converge of a missing parameter: %v, want ErrNoKey", err)
	}
}

// TestValidation: each problem at its position; a poll interval unset is
// the default.
func TestValidation(t *testing.T) {
	resourcetest.Rejects(t, "sysctl", []resourcetest.Rejected{
		{Case: "value required", Name: "net.ipv4.ip_forward", Props: "persist: true", Want: "test.yaml:1:1: sysctl#net.ipv4.ip_forward: value is required"},
		{Case: "bad key", Name: "net..ipv4", Props: "value: 1", Want: `test.yaml:1:1: sysctl#net..ipv4: "net..ipv4" is not a kernel parameter's name`},
		{Case: "path in key", Name: "../etc/passwd", Props: "value: 1", Want: "is not a kernel parameter's name"},
		{Case: "two lines", Name: "kernel.x", Props: "value: \"1\\n2\"", Want: "test.yaml:1:8: value: must be one line"},
		{Case: "bad interval", Name: "kernel.x", Props: "value: 1\npoll_interval: often", Want: `test.yaml:2:16: poll_interval: "often" is not a duration (2s, 500ms)`},
		{Case: "short interval", Name: "kernel.x", Props: "value: 1\npoll_interval: 1ms", Want: "test.yaml:2:16: poll_interval: 1ms is shorter than 10ms"},
	})
	for props, want := range map[string]time.Duration{"value: 1": sysctl.DefaultPoll, "value: 1\npoll_interval: 10ms": 10 * time.Millisecond} {
		r := build(t, "kernel.x", props)
		if got := r.Watch().Poll; got != want {
			t.Errorf("%q polls every %s, want %s", props, got, want)
		}
	}
}

// TestKernelRefusal: a value the kernel refuses is an error that names
// the value and the parameter.
func TestKernelRefusal(t *testing.T) {
	sandbox.Require(t)
	r := build(t, "net.ipv4.ip_forward", "value: seven")
	_, err := resources.Converge(t.Context(), r, false, false)
	if err == nil || !strings.Contains(err.Error(), `the kernel refused "seven" for net.ipv4.ip_forward`) {
		t.Errorf("converge with a bad value: %v", err)
	}
}

// TestPersistOnly: a value already set with its drop-in missing writes
// the drop-in alone; inspect shows the value and what the drop-in sets.
func TestPersistOnly(t *testing.T) {
	sandbox.Require(t)
	const dropIn = "/etc/sysctl.d/zz-ccm-net.ipv4.conf.lo.arp_notify.conf"
	set(t, "/proc/sys/net/ipv4/conf/lo/arp_notify", "1")
	t.Cleanup(func() { _ = os.Remove(dropIn) })
	typ, _ := resources.Lookup("sysctl")
	show := func() string { return resourcetest.Inspect(t, "sysctl", "net.ipv4.conf.lo.arp_notify") }
	const base = `{"key":"net.ipv4.conf.lo.arp_notify","value":"1","path":"/proc/sys/net/ipv4/conf/lo/arp_notify",`
	if got, want := show(), base+`"provider":"procfs"}`; got != want {
		t.Errorf("status %s, want %s", got, want)
	}
	r := build(t, "net.ipv4.conf.lo.arp_notify", "value: 1\npersist: true")
	out := resourcetest.Converge(t.Context(), t, r, false, true)
	if want := "Would have written " + dropIn; out.Change.NoopMessage != want || out.Before.Reason() != "persist absent → "+dropIn {
		t.Errorf("noop %q (%s), want %q", out.Change.NoopMessage, out.Before.Reason(), want)
	}
	resourcetest.Converge(t.Context(), t, r, false, false)
	if got, want := show(), base+`"persisted":"`+dropIn+`: it sets 1","provider":"procfs"}`; got != want {
		t.Errorf("status %s, want %s", got, want)
	}
	if _, err := typ.Inspect(t.Context(), "a..b"); err == nil || !strings.Contains(err.Error(), `"a..b" is not a kernel parameter's name`) {
		t.Errorf("inspecting a bad name: %v", err)
	}
	if _, err := typ.Inspect(t.Context(), "kernel.ccm_none"); !errors.Is(err, sysctl.ErrNoKey) || !strings.Contains(err.Error(), "/proc/sys/kernel/ccm_none does not exist") {
		t.Errorf("inspecting a missing parameter: %v", err)
	}
}

// TestInstance: the value is the ensure, normalized; without persist the
// parameter depends on no file and nothing waits for it; with persist
// the drop-in is the resource's whole, and watched.
func TestInstance(t *testing.T) {
	const d = "/etc/sysctl.d/zz-ccm-net.ipv4.ip_forward.conf"
	resourcetest.Declares(t, "sysctl", "net.ipv4.ip_forward", []resourcetest.Declared{
		{Props: "value: \" 40000 \t 50000 \"",
			Want: "ensure 40000 50000 independent true owns [] uses [] claims [] paths [] mounts []"},
		{Props: "value: 1\npersist: true",
			Want: "ensure 1 independent false owns [" + d + "] uses [" + d + "] claims [{" + d + " true persist}] paths [" + d + "] mounts []"},
	})
}

// TestDropInLinkIsNotFollowed: a symlink where the drop-in goes is never
// written through: its target keeps its content.
func TestDropInLinkIsNotFollowed(t *testing.T) {
	sandbox.Require(t)
	const dropIn = "/etc/sysctl.d/zz-ccm-net.ipv4.conf.lo.arp_accept.conf"
	victim := filepath.Join(t.TempDir(), "victim")
	resourcetest.WriteFile(t, victim, "precious\n", 0o600)
	if err := os.Symlink(victim, dropIn); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Remove(dropIn) })
	r := build(t, "net.ipv4.conf.lo.arp_accept", "value: 0\npersist: true")
	_, err := resources.Converge(t.Context(), r, false, false)
	if got := resourcetest.ReadFile(t, victim); got != "precious\n" {
		t.Errorf("the link's target now holds %q", got)
	}
	if err == nil || !strings.Contains(err.Error(), dropIn+" is not a regular file: a symlink is never followed") {
		t.Errorf("converge: %v, want a refusal naming the drop-in", err)
	}
}

// TestKeyUnderAFile: a name that goes below a parameter's file is no
// parameter, as a misspelt one.
func TestKeyUnderAFile(t *testing.T) {
	sandbox.Require(t)
	r := build(t, "net.ipv4.ip_forward.x", "value: 1")
	if _, err := r.Check(t.Context()); !errors.Is(err, sysctl.ErrNoKey) || !strings.Contains(err.Error(), "a module not loaded, or a misspelt name") {
		t.Errorf("check: %v, want ErrNoKey", err)
	}
}

// TestValueAndDropInTogether: a check reports both differences, an apply
// fixes both, the new drop-in root's and mode 0644.
func TestValueAndDropInTogether(t *testing.T) {
	sandbox.Require(t)
	const (
		proc   = "/proc/sys/net/ipv4/conf/lo/arp_ignore"
		dropIn = "/etc/sysctl.d/zz-ccm-net.ipv4.conf.lo.arp_ignore.conf"
	)
	set(t, proc, "0")
	t.Cleanup(func() { _ = os.Remove(dropIn) })
	r := build(t, "net.ipv4.conf.lo.arp_ignore", "value: 2\npersist: true")
	out := resourcetest.Converge(t.Context(), t, r, false, false)
	if want := "value 0 → 2; persist absent → " + dropIn; out.Before.Reason() != want || !out.After.Desired {
		t.Errorf("converge %q (after desired %v), want %q", out.Before.Reason(), out.After.Desired, want)
	}
	fi, err := os.Stat(dropIn)
	if err != nil || fi.Mode().Perm() != 0o644 || fi.Sys().(*syscall.Stat_t).Uid != 0 {
		t.Errorf("drop-in %v, %v; want root's, 0644", fi.Mode(), err)
	}
	if got := resourcetest.ReadFile(t, proc); got != "2\n" {
		t.Errorf("arp_ignore holds %q", got)
	}
}
