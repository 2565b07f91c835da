package clock_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/watchers/clock"
)

// TestFakeTimersFireOnceAndReArmInPlace: a timer fires once per arming,
// a fire not yet read waits in its channel, and re-arming an armed timer
// moves it rather than adding another.
func TestFakeTimersFireOnceAndReArmInPlace(t *testing.T) {
	f := clock.NewFake(epoch)
	if _, ok := f.Next(); ok {
		t.Fatal("Next reports a deadline with no timer armed")
	}
	tm := f.NewTimer(time.Minute)
	tm.Reset(time.Second)
	tm.Reset(time.Hour)
	if next, ok := f.Next(); f.Armed() != 1 || !ok || !next.Equal(epoch.Add(time.Hour)) {
		t.Fatalf("%d armed, next %v; want the one timer, an hour on", f.Armed(), next)
	}
	f.Advance(time.Hour)
	f.Advance(time.Hour)
	if !fired(tm) || fired(tm) {
		t.Fatal("want exactly one fire, kept until read")
	}
	if f.Armed() != 0 {
		t.Fatalf("%d armed after the fire, want none: a timer does not repeat", f.Armed())
	}
}

func TestWaitNextEndsWithItsContext(t *testing.T) {
	f := clock.NewFake(epoch)
	f.NewTimer(time.Hour)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	err := f.WaitNext(ctx, func(next time.Time) bool { return next.Before(epoch.Add(time.Minute)) })
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("WaitNext = %v, want the context's error: no deadline it accepts is armed", err)
	}
}

// TestFakeIsSafeForConcurrentUse: timers armed, reset and stopped from
// many goroutines while the time moves (for the race detector).
func TestFakeIsSafeForConcurrentUse(t *testing.T) {
	f := clock.NewFake(epoch)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			tm := f.NewTimer(time.Duration(i) * time.Second)
			for j := range 100 {
				tm.Reset(time.Duration(j) * time.Millisecond)
				f.Advance(time.Millisecond)
				fired(tm)
			}
			tm.Stop()
		})
	}
	wg.Wait()
	if f.Armed() != 0 || !f.Now().Equal(epoch.Add(800*time.Millisecond)) {
		t.Fatalf("%d armed, now %v; want none and 800 advances of 1ms", f.Armed(), f.Now())
	}
}
