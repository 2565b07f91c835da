package mount_test

import (
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/engine/enginetest"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"github.com/reactive-ccm/ccm/resources/resourcetest/sandbox"
)

// TestWatchRepairsDrift: an unmount by hand, another filesystem mounted
// over the point, or the fstab line edited, is seen by the mount table
// hub (or inotify for fstab) and repaired at once.
func TestWatchRepairsDrift(t *testing.T) {
	p := point(t)
	before := resourcetest.ReadFile(t, "/etc/fstab")
	t.Cleanup(func() { resourcetest.WriteFile(t, "/etc/fstab", before, 0o644) })
	id := "mount#" + p
	w := enginetest.Start(t, `
- mount:
    - `+p+`:
        device: ccm-watch
        fstype: tmpfs
        options: [size=1m]
        persist: true
`, enginetest.Options{})
	w.Changed(t, id)
	w.Settle(t)
	line := "ccm-watch " + p + " tmpfs size=1m 0 0\n"
	w.RepairsEach(t, id, []enginetest.Drift{
		{Name: "unmounted", Make: sandbox.Step("umount", p)},
		{Name: "mounted over", Make: sandbox.Step("mount", "-t", "tmpfs", "intruder", p)},
		{Name: "fstab line edited", Make: func(t *testing.T) {
			resourcetest.WriteFile(t, "/etc/fstab", strings.Replace(resourcetest.ReadFile(t, "/etc/fstab"), "size=1m", "size=2m", 1), 0o644)
		}},
	}, func(t *testing.T, _ enginetest.Drift) {
		if e := top(t, p); e == nil || e.Source != "ccm-watch" {
			t.Errorf("after the repair %+v", e)
		}
		if got := resourcetest.ReadFile(t, "/etc/fstab"); !strings.HasSuffix(got, line) {
			t.Errorf("fstab %q, want it to end with %q", got, line)
		}
	})
}
