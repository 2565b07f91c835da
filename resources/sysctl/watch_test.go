package sysctl_test

import (
	"os"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/enginetest"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"github.com/reactive-ccm/ccm/resources/resourcetest/sandbox"
)

// TestWatchRepairsDrift: a `sysctl -w` by hand is found by the next poll
// and undone; an edited drop-in is found by inotify.
func TestWatchRepairsDrift(t *testing.T) {
	sandbox.Require(t)
	const (
		lo     = "/proc/sys/net/ipv4/conf/lo/accept_local"
		dropIn = "/etc/sysctl.d/zz-ccm-net.ipv4.conf.lo.accept_local.conf"
	)
	set(t, forward, "0")
	set(t, lo, "0")
	if err := os.RemoveAll(dropIn); err != nil {
		t.Fatal(err)
	}
	w := enginetest.Start(t, `
- sysctl:
    - net.ipv4.ip_forward:
        value: "1"
        poll_interval: 50ms
    - net.ipv4.conf.lo.accept_local:
        value: "1"
        persist: true
`, enginetest.Options{})
	w.Changed(t, "sysctl#net.ipv4.ip_forward")
	w.Changed(t, "sysctl#net.ipv4.conf.lo.accept_local")
	w.Settle(t)
	start := time.Now()
	set(t, forward, "0")
	if ev := w.Changed(t, "sysctl#net.ipv4.ip_forward"); ev.Trigger != engine.TriggerPoll {
		t.Errorf("repair %+v, want a poll", ev)
	}
	t.Logf("value repaired %s after the write (poll interval 50ms)", time.Since(start))
	if got := resourcetest.ReadFile(t, forward); got != "1\n" {
		t.Errorf("ip_forward holds %q after the repair", got)
	}
	w.Settle(t)
	start = time.Now()
	resourcetest.WriteFile(t, dropIn, "net.ipv4.conf.lo.accept_local = 0\n", 0o644)
	if ev := w.Changed(t, "sysctl#net.ipv4.conf.lo.accept_local"); ev.Trigger != engine.TriggerDrift {
		t.Errorf("repair %+v, want a drift", ev)
	}
	t.Logf("drop-in repaired %s after the write", time.Since(start))
}
