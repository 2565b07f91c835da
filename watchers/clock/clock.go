package clock

import "time"

// Clock tells the time and makes timers.
type Clock interface {
	Now() time.Time
	// NewTimer returns a timer that fires once, d from now.
	NewTimer(d time.Duration) Timer
}

// Timer is a one-shot timer, as time.Timer.
type Timer interface {
	// C delivers the time once the timer fires.
	C() <-chan time.Time
	// Reset re-arms the timer to fire d from now, dropping a pending fire.
	Reset(d time.Duration)
	// Stop disarms the timer, dropping a pending fire.
	Stop()
}

// Real returns the system clock.
func Real() Clock { return realClock{} }

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) NewTimer(d time.Duration) Timer { return realTimer{time.NewTimer(d)} }

// realTimer relies on Go 1.23 timers: Reset and Stop discard a fire not
// yet received.
type realTimer struct{ t *time.Timer }

func (r realTimer) C() <-chan time.Time   { return r.t.C }
func (r realTimer) Reset(d time.Duration) { r.t.Reset(d) }
func (r realTimer) Stop()                 { r.t.Stop() }
