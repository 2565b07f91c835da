// Package poll is the polling hub: one goroutine and one timer fire every
// registration at its interval, with jitter, so ten thousand polled
// resources cost one timer, not ten thousand goroutines.
package poll

import (
	"context"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/reactive-ccm/ccm/internal/pqueue"
	"github.com/reactive-ccm/ccm/watchers/clock"
)

// Hub fires registrations at their intervals until its context ends.
type Hub struct {
	clock clock.Clock
	mu    sync.Mutex
	// queue holds the registrations, the next deadline first; equal
	// deadlines fire in registration order.
	queue pqueue.Queue[*entry]
	wake  chan struct{}
	seq   uint64
}

type entry struct {
	interval time.Duration
	next     time.Time
	notify   func()
	index    int
	// seq breaks ties so equal deadlines fire in registration order.
	seq uint64
}

// Option configures a Hub.
type Option func(*Hub)

// WithClock makes the hub keep time by c instead of the system clock.
func WithClock(c clock.Clock) Option { return func(h *Hub) { h.clock = c } }

// New starts a hub that runs until ctx is cancelled.
func New(ctx context.Context, opts ...Option) *Hub {
	h := &Hub{wake: make(chan struct{}, 1), clock: clock.Real(), queue: pqueue.New(earlier, func(e *entry) *int { return &e.index })}
	for _, o := range opts {
		o(h)
	}
	go h.loop(ctx)
	return h
}

// Every calls notify about every interval (±10% jitter, the first time
// after a random fraction of the interval so registrations made together
// spread out) until cancel is called. notify must not block.
func (h *Hub) Every(interval time.Duration, notify func()) (cancel func()) {
	h.mu.Lock()
	h.seq++
	e := &entry{interval: interval, notify: notify, seq: h.seq,
		next: h.clock.Now().Add(time.Duration(rand.Float64() * float64(interval)))}
	h.queue.Push(e)
	h.mu.Unlock()
	h.poke()
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		if e.index >= 0 {
			h.queue.Remove(e)
		}
	}
}

// Len returns the number of registrations.
func (h *Hub) Len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.queue.Len()
}

func (h *Hub) poke() {
	select {
	case h.wake <- struct{}{}:
	default:
	}
}

func (h *Hub) loop(ctx context.Context) {
	timer := h.clock.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		// Re-armed for the deadline itself: time that passed during the
		// calls, or a Fake advanced meanwhile, is not waited on again.
		timer.ResetAt(h.fire(h.clock.Now()))
		select {
		case <-ctx.Done():
			return
		case <-h.wake:
		case <-timer.C():
		}
	}
}

// maxSlack bounds how early a registration may fire.
const maxSlack = 250 * time.Millisecond

// slack is how early e may fire so that registrations due close together
// fire in one wake-up: a tenth of its interval, at most maxSlack. Ten
// thousand resources polled every 10s then cost a few wake-ups a second,
// not a thousand.
func (e *entry) slack() time.Duration { return min(e.interval/10, maxSlack) }

// fire calls every registration that is due (within its slack) and
// returns when the next one is due.
func (h *Hub) fire(now time.Time) time.Time {
	var due []func()
	h.mu.Lock()
	for h.queue.Len() > 0 && !h.queue.Peek().next.After(now.Add(h.queue.Peek().slack())) {
		e := h.queue.Peek()
		due = append(due, e.notify)
		e.next = now.Add(jittered(e.interval))
		h.queue.Fix(e)
	}
	next := now.Add(time.Hour)
	if h.queue.Len() > 0 {
		next = h.queue.Peek().next
	}
	h.mu.Unlock()
	for _, fn := range due {
		fn()
	}
	return next
}

func jittered(d time.Duration) time.Duration {
	return d + time.Duration((rand.Float64()*0.2-0.1)*float64(d))
}

// earlier orders entries by deadline, then by registration.
func earlier(a, b *entry) bool {
	if a.next.Equal(b.next) {
		return a.seq < b.seq
	}
	return a.next.Before(b.next)
}
