package clock_test

import (
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/watchers/clock"
)

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func fired(t clock.Timer) bool {
	select {
	case <-t.C():
		return true
	default:
		return false
	}
}

func TestFakeTimersFireOnlyWhenTimeReachesThem(t *testing.T) {
	f := clock.NewFake(epoch)
	a, b := f.NewTimer(time.Second), f.NewTimer(2*time.Second)
	if next, ok := f.Next(); !ok || !next.Equal(epoch.Add(time.Second)) {
		t.Fatalf("Next = %v, %v", next, ok)
	}
	f.Advance(999 * time.Millisecond)
	if fired(a) || fired(b) {
		t.Fatal("a timer fired early")
	}
	f.Advance(time.Millisecond)
	if !fired(a) || fired(b) {
		t.Fatal("want only the first timer fired")
	}
	f.Advance(time.Hour)
	if !fired(b) || f.Armed() != 0 {
		t.Fatalf("second timer not fired, %d armed", f.Armed())
	}
	if got := f.Now(); !got.Equal(epoch.Add(time.Hour + 2*time.Second - time.Second)) {
		t.Fatalf("Now = %v", got)
	}
}

func TestFakeResetAndStopDropPendingFires(t *testing.T) {
	f := clock.NewFake(epoch)
	tm := f.NewTimer(time.Second)
	f.Advance(time.Second)
	tm.Reset(time.Minute)
	if fired(tm) {
		t.Fatal("a fire before Reset was delivered after it")
	}
	tm.Stop()
	f.Advance(time.Hour)
	if fired(tm) || f.Armed() != 0 {
		t.Fatal("a stopped timer fired")
	}
	tm.Reset(0)
	if !fired(tm) {
		t.Fatal("a timer reset to zero must fire at once")
	}
}

func TestWaitNext(t *testing.T) {
	f := clock.NewFake(epoch)
	done := make(chan error)
	go func() {
		done <- f.WaitNext(t.Context(), func(next time.Time) bool { return next.Before(epoch.Add(time.Minute)) })
	}()
	f.NewTimer(time.Hour)
	f.NewTimer(time.Second)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestRealTimerFires(t *testing.T) {
	c := clock.Real()
	tm := c.NewTimer(0)
	<-tm.C()
	if c.Now().Before(epoch) {
		t.Fatal("the real clock is in the past")
	}
}
