package poll_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/watchers/clock"
	"github.com/reactive-ccm/ccm/watchers/poll"
)

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// fakeHub is a hub on a fake clock.
func fakeHub(t *testing.T) (*poll.Hub, *clock.Fake) {
	f := clock.NewFake(epoch)
	h := poll.New(t.Context(), poll.WithClock(f))
	return h, f
}

// step moves the fake time by d and waits until the hub has fired what was
// due and re-armed its one timer for later.
func step(t *testing.T, f *clock.Fake, d time.Duration) {
	t.Helper()
	f.Advance(d)
	now := f.Now()
	if err := f.WaitNext(t.Context(), func(next time.Time) bool { return next.After(now) }); err != nil {
		t.Fatal(err)
	}
}

func TestEveryFiresRepeatedlyUntilCancelled(t *testing.T) {
	h, f := fakeHub(t)
	fired := make(chan struct{}, 100)
	const every = 20 * time.Millisecond
	cancel := h.Every(every, func() { fired <- struct{}{} })
	for range 3 {
		// Within an interval plus its jitter, the registration fires once.
		f.Advance(every + every/10)
		<-fired
	}
	cancel()
	cancel() // idempotent
	if h.Len() != 0 {
		t.Fatalf("%d registrations after cancel", h.Len())
	}
	// A later registration firing proves the hub went past the cancelled
	// one's deadlines without calling it.
	marker := make(chan struct{}, 100)
	h.Every(every, func() { marker <- struct{}{} })
	f.Advance(time.Hour)
	<-marker
	if n := len(fired); n != 0 {
		t.Fatalf("fired %d times after cancel", n)
	}
}

func TestFirstRoundSpreadsOverOneInterval(t *testing.T) {
	h, f := fakeHub(t)
	const n, interval, steps = 200, time.Second, 10
	var fired atomic.Int32
	var byStep [steps + 1]atomic.Int32
	var current atomic.Int32
	for range n {
		var once atomic.Bool
		defer h.Every(interval, func() {
			if once.CompareAndSwap(false, true) {
				fired.Add(1)
				byStep[current.Load()].Add(1)
			}
		})()
	}
	// The hub has taken the registrations once its timer waits for one.
	if err := f.WaitNext(t.Context(), func(next time.Time) bool { return next.Before(epoch.Add(interval)) }); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= steps; i++ {
		current.Store(int32(i))
		step(t, f, interval/steps)
	}
	// Every first deadline lies within one interval...
	if got := fired.Load(); got != n {
		t.Fatalf("%d of %d fired within one interval", got, n)
	}
	// ...spread over it, so registrations made together do not fire in
	// lockstep.
	busiest := int32(0)
	for i := range byStep {
		busiest = max(busiest, byStep[i].Load())
	}
	if busiest > n/2 {
		t.Fatalf("%d of %d fired in one tenth of the interval", busiest, n)
	}
}
