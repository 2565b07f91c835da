package group_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/enginetest"
	"github.com/reactive-ccm/ccm/resources/resourcetest/sandbox"
)

// TestWatchRepairsDrift: a member removed, a gid changed or the group
// deleted by the host's tools is repaired at once.
func TestWatchRepairsDrift(t *testing.T) {
	sandbox.Require(t)
	addUsers(t, "ccmw1", "ccmw2")
	const id = "group#ccmwatch"
	w := enginetest.Start(t, `
- group:
    - ccmwatch:
        gid: 4800
        members: [ccmw1, ccmw2]
`, enginetest.Options{})
	w.Changed(t, id)
	w.Settle(t)
	t.Cleanup(func() { sandbox.Command(t, "groupdel", "ccmwatch") })
	tamper := []struct {
		name string
		args []string
	}{
		{"member removed", []string{"gpasswd", "--delete", "ccmw1", "ccmwatch"}},
		{"gid changed", []string{"groupmod", "--gid", "4801", "ccmwatch"}},
		{"group deleted", []string{"groupdel", "ccmwatch"}},
	}
	for _, tt := range tamper {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			sandbox.Command(t, tt.args[0], tt.args[1:]...)
			ran := time.Since(start)
			if ev := w.Changed(t, id); ev.Trigger != engine.TriggerDrift {
				t.Errorf("repair %+v, want a drift", ev)
			}
			t.Logf("repaired %s after the tool started (the tool took %s)", time.Since(start), ran)
			w.Settle(t)
			if g := lookup(t, "ccmwatch"); g == nil || g.GID != 4800 || strings.Join(slices.Sorted(slices.Values(g.Members)), ",") != "ccmw1,ccmw2" {
				t.Errorf("after the repair %+v", g)
			}
		})
	}
}
