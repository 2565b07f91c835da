package clock

import (
	"context"
	"slices"
	"sync"
	"time"
)

// Fake is a clock that moves only when told to. It is safe for
// concurrent use.
type Fake struct {
	mu  sync.Mutex
	now time.Time
	// armed holds the timers waiting to fire.
	armed []*fakeTimer
	// changed is closed and replaced whenever a timer is armed, so
	// WaitNext wakes.
	changed chan struct{}
}

// NewFake returns a fake clock reading start.
func NewFake(start time.Time) *Fake {
	return &Fake{now: start, changed: make(chan struct{})}
}

// Now returns the fake time.
func (f *Fake) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// NewTimer returns a timer firing when the fake time reaches now+d.
func (f *Fake) NewTimer(d time.Duration) Timer {
	t := &fakeTimer{f: f, c: make(chan time.Time, 1)}
	t.Reset(d)
	return t
}

// Advance moves the time forward by d and fires every timer due.
func (f *Fake) Advance(d time.Duration) {
	f.mu.Lock()
	f.now = f.now.Add(d)
	f.fireLocked()
	f.mu.Unlock()
}

// Armed returns how many timers wait to fire.
func (f *Fake) Armed() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.armed)
}

// Next returns the deadline of the earliest armed timer; false when none
// is armed.
func (f *Fake) Next() (time.Time, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.armed) == 0 {
		return time.Time{}, false
	}
	return f.armed[0].at, true
}

// WaitNext returns once a timer is armed and ok accepts the earliest
// deadline, or ctx ends. A test knows that a loop re-armed its timer after
// Advance by waiting for a deadline after Now.
func (f *Fake) WaitNext(ctx context.Context, ok func(next time.Time) bool) error {
	for {
		f.mu.Lock()
		done := len(f.armed) > 0 && ok(f.armed[0].at)
		changed := f.changed
		f.mu.Unlock()
		if done {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// fireLocked fires the due timers, earliest first. Callers hold f.mu.
func (f *Fake) fireLocked() {
	for len(f.armed) > 0 && !f.armed[0].at.After(f.now) {
		t := f.armed[0]
		f.armed = f.armed[1:]
		select {
		case t.c <- f.now:
		default:
		}
	}
}

// arm schedules t at its deadline. Callers hold f.mu.
func (f *Fake) arm(t *fakeTimer) {
	i, _ := slices.BinarySearchFunc(f.armed, t.at, func(a *fakeTimer, at time.Time) int {
		if a.at.After(at) {
			return 1
		}
		return -1
	})
	f.armed = slices.Insert(f.armed, i, t)
	close(f.changed)
	f.changed = make(chan struct{})
	f.fireLocked()
}

// disarm removes t and any fire it has not delivered. Callers hold f.mu.
func (f *Fake) disarm(t *fakeTimer) {
	f.armed = slices.DeleteFunc(f.armed, func(a *fakeTimer) bool { return a == t })
	select {
	case <-t.c:
	default:
	}
}

type fakeTimer struct {
	f  *Fake
	c  chan time.Time
	at time.Time
}

func (t *fakeTimer) C() <-chan time.Time { return t.c }

func (t *fakeTimer) Reset(d time.Duration) {
	t.f.mu.Lock()
	defer t.f.mu.Unlock()
	t.f.disarm(t)
	t.at = t.f.now.Add(d)
	t.f.arm(t)
}

func (t *fakeTimer) Stop() {
	t.f.mu.Lock()
	defer t.f.mu.Unlock()
	t.f.disarm(t)
}
