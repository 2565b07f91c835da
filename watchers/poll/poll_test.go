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

// toNext moves the fake time to the deadline the hub's timer waits for and
// waits until the hub has fired what was due and re-armed for later.
func toNext(t *testing.T, f *clock.Fake) {
	t.Helper()
	next, ok := f.Next()
	if !ok {
		t.Fatal("the hub's timer is not armed")
	}
	step(t, f, next.Sub(f.Now()))
}

func TestEveryFiresRepeatedlyUntilCancelled(t *testing.T) {
	h, f := fakeHub(t)
	var fired atomic.Int32
	const every = 20 * time.Millisecond
	cancel := h.Every(every, func() { fired.Add(1) })
	// The hub has taken the registration once its timer waits for less
	// than the hour it waits with none. A first deadline within the slack
	// of the start fires at once, so the count starts from here.
	if err := f.WaitNext(t.Context(), func(next time.Time) bool { return next.Before(epoch.Add(time.Hour)) }); err != nil {
		t.Fatal(err)
	}
	base := fired.Load()
	for i := int32(1); i <= 3; i++ {
		toNext(t, f)
		if got := fired.Load() - base; got != i {
			t.Fatalf("fired %d times by its deadline number %d", got, i)
		}
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
	if got := fired.Load() - base; got != 3 {
		t.Fatalf("fired %d times after cancel", got-3)
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
