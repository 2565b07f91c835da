package group_test

import (
	"slices"
	"strings"
	"testing"

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
	w.RepairsEach(t, id, []enginetest.Drift{
		{Name: "member removed", Make: sandbox.Step("gpasswd", "--delete", "ccmw1", "ccmwatch")},
		{Name: "gid changed", Make: sandbox.Step("groupmod", "--gid", "4801", "ccmwatch")},
		{Name: "group deleted", Make: sandbox.Step("groupdel", "ccmwatch")},
	}, func(t *testing.T, _ enginetest.Drift) {
		if g := lookup(t, "ccmwatch"); g == nil || g.GID != 4800 || strings.Join(slices.Sorted(slices.Values(g.Members)), ",") != "ccmw1,ccmw2" {
			t.Errorf("after the repair %+v", g)
		}
	})
}
