package poll_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/watchers/poll"
)

func TestEveryFiresRepeatedlyUntilCancelled(t *testing.T) {
	h := poll.New(t.Context())
	var n atomic.Int32
	cancel := h.Every(20*time.Millisecond, func() { n.Add(1) })
	deadline := time.Now().Add(3 * time.Second)
	for n.Load() < 3 {
		if time.Now().After(deadline) {
			t.Fatalf("fired %d times in 3s at a 20ms interval", n.Load())
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	cancel() // idempotent
	if h.Len() != 0 {
		t.Fatalf("%d registrations after cancel", h.Len())
	}
	after := n.Load()
	time.Sleep(100 * time.Millisecond)
	if n.Load() > after+1 {
		t.Fatalf("still firing after cancel: %d -> %d", after, n.Load())
	}
}

func TestFirstRoundFiresWithinOneInterval(t *testing.T) {
	h := poll.New(t.Context())
	var first, last atomic.Int64
	const n = 200
	var fired atomic.Int32
	for range n {
		defer h.Every(time.Second, func() {
			now := time.Now().UnixNano()
			first.CompareAndSwap(0, now)
			last.Store(now)
			fired.Add(1)
		})()
	}
	deadline := time.Now().Add(5 * time.Second)
	for fired.Load() < n {
		if time.Now().After(deadline) {
			t.Fatalf("only %d of %d fired", fired.Load(), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// First deadlines are spread over one interval so registrations made
	// together do not fire in lockstep, and early firing never exceeds it.
	if spread := time.Duration(last.Load() - first.Load()); spread > time.Second {
		t.Fatalf("first round spread over %s", spread)
	}
}
