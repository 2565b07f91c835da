// Package poll is the polling hub: one goroutine and one timer fire every
// registration at its interval, with jitter, so ten thousand polled
// resources cost one timer, not ten thousand goroutines.
package poll

import (
	"container/heap"
	"context"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/reactive-ccm/ccm/watchers/clock"
)

// Hub fires registrations at their intervals until its context ends.
type Hub struct {
	clock clock.Clock
	mu    sync.Mutex
	queue entries
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
	h := &Hub{wake: make(chan struct{}, 1), clock: clock.Real()}
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
	heap.Push(&h.queue, e)
	h.mu.Unlock()
	h.poke()
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		if e.index >= 0 {
			heap.Remove(&h.queue, e.index)
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
		// The wait is measured from the time after the calls, so a clock
		// that moved meanwhile is not waited on twice.
		timer.Reset(h.fire(h.clock.Now()).Sub(h.clock.Now()))
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
	for h.queue.Len() > 0 && !h.queue[0].next.After(now.Add(h.queue[0].slack())) {
		e := h.queue[0]
		due = append(due, e.notify)
		e.next = now.Add(jittered(e.interval))
		heap.Fix(&h.queue, 0)
	}
	next := now.Add(time.Hour)
	if h.queue.Len() > 0 {
		next = h.queue[0].next
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

// entries is a min-heap on the next deadline.
type entries []*entry

func (q entries) Len() int { return len(q) }
func (q entries) Less(i, j int) bool {
	if q[i].next.Equal(q[j].next) {
		return q[i].seq < q[j].seq
	}
	return q[i].next.Before(q[j].next)
}
func (q entries) Swap(i, j int) {
	q[i], q[j] = q[j], q[i]
	q[i].index = i
	q[j].index = j
}
func (q *entries) Push(x any) {
	e := x.(*entry)
	e.index = len(*q)
	*q = append(*q, e)
}
func (q *entries) Pop() any {
	old := *q
	e := old[len(old)-1]
	old[len(old)-1] = nil
	*q = old[:len(old)-1]
	e.index = -1
	return e
}
