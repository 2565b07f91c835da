package control

import (
	"sync"

	"github.com/reactive-ccm/ccm/engine"
)

// ring keeps the recent events and fans new ones out to followers.
type ring struct {
	mu     sync.Mutex
	events []*engine.Event
	next   int // where the next event goes once the ring is full
	subs   map[chan *engine.Event]struct{}
}

// followBuffer is how far a follower may lag before it is dropped.
const followBuffer = 256

func newRing() *ring {
	return &ring{events: make([]*engine.Event, 0, RingSize), subs: map[chan *engine.Event]struct{}{}}
}

// publish records ev and hands it to every follower; a follower whose
// buffer is full is closed instead of waited for.
func (r *ring) publish(ev *engine.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.events) < RingSize {
		r.events = append(r.events, ev)
	} else {
		r.events[r.next] = ev
		r.next = (r.next + 1) % RingSize
	}
	for ch := range r.subs {
		select {
		case ch <- ev:
		default:
			delete(r.subs, ch)
			close(ch)
		}
	}
}

// recent returns the events in the ring, oldest first, and when follow
// is set a channel of the events after them; cancel stops the channel.
func (r *ring) recent(follow bool) (past []*engine.Event, live chan *engine.Event, cancel func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	past = append(append(past, r.events[r.next:]...), r.events[:r.next]...)
	if !follow {
		return past, nil, func() {}
	}
	live = make(chan *engine.Event, followBuffer)
	r.subs[live] = struct{}{}
	return past, live, func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		if _, ok := r.subs[live]; ok {
			delete(r.subs, live)
			close(live)
		}
	}
}
