package mount_test

import (
	"log/slog"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/resources/resourcetest/sandbox"
	"github.com/reactive-ccm/ccm/watchers/mountinfo"
)

// TestMountTableHubSeesEveryChange holds the shared mount table hub to
// one notification per mount and unmount at a watched point, many times
// over; it lives here, where the tests run in a mount namespace of their
// own. (A hub reading the table through an os.File lost the second
// change: Go's poller consumed the kernel's event.)
func TestMountTableHubSeesEveryChange(t *testing.T) {
	p := point(t)
	sandbox.Command(t, "mkdir", "-p", p)
	other := point(t)
	sandbox.Command(t, "mkdir", "-p", other)
	h := mountinfo.New(t.Context(), slog.Default(), nil)
	seen := make(chan struct{}, 100)
	cancel := h.Watch(p, func() { seen <- struct{}{} })
	defer cancel()
	// A mount elsewhere notifies no one watching p.
	sandbox.Command(t, "mount", "-t", "tmpfs", "elsewhere", other)
	for i := range 20 {
		for _, args := range [][]string{{"mount", "-t", "tmpfs", "x", p}, {"umount", p}} {
			sandbox.Command(t, args[0], args[1:]...)
			select {
			case <-seen:
			case <-time.After(time.Minute):
				t.Fatalf("round %d: no notification for %s", i, args[0])
			}
		}
	}
	if n := len(seen); n != 0 {
		t.Errorf("%d notifications more than changes", n)
	}
}
