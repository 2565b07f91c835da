package systemd

import (
	"fmt"
	"math/rand/v2"
	"time"

	godbus "github.com/godbus/dbus/v5"
)

const (
	retryMin = 50 * time.Millisecond
	retryMax = 5 * time.Second
)

// loop connects, serves the connection until it drops, and reconnects,
// until the hub is closed.
func (h *Hub) loop() {
	defer close(h.done)
	delay := retryMin
	for h.ctx.Err() == nil {
		l, err := h.connect()
		if err != nil {
			h.setLink(nil, "cannot connect", err)
			h.markReady()
			if !h.sleep(delay) {
				return
			}
			delay = min(2*delay, retryMax)
			continue
		}
		delay = retryMin
		h.serve(l)
	}
}

// connect dials and wraps the connection for go-systemd.
func (h *Hub) connect() (*link, error) {
	bus, err := h.opts.Dial(h.ctx)
	if err != nil {
		return nil, err
	}
	return newLink(bus)
}

// serve runs one connection: subscribe (or poll), take unit references,
// tell every watcher to look again (anything may have changed while
// disconnected), then route signals until the connection drops.
func (h *Hub) serve(l *link) {
	defer l.close()
	s := &session{hub: h, link: l, refs: map[string]godbus.ObjectPath{}, paths: map[godbus.ObjectPath]string{}}
	poll := h.opts.Poll
	state := "subscribed to unit changes"
	if poll == 0 {
		if err := l.subscribe(h.ctx); err != nil {
			h.opts.Logger.Warn("systemd: cannot subscribe to unit signals; polling instead", "error", err)
			poll = DefaultPoll
		}
	}
	if poll > 0 {
		state = fmt.Sprintf("polling unit states every %s", poll)
		s.poller = newPoller()
	}
	s.syncRefs()
	h.setLink(l, "connected, "+state, nil)
	h.markReady()
	h.notifyAll()
	s.run(poll)
	if h.ctx.Err() == nil {
		h.setLink(nil, "connection lost", fmt.Errorf("the D-Bus connection to systemd dropped"))
	}
}

func (h *Hub) markReady() {
	select {
	case <-h.ready:
	default:
		close(h.ready)
	}
}

// sleep waits d with jitter; false when the hub was closed meanwhile.
func (h *Hub) sleep(d time.Duration) bool {
	d += rand.N(d/2 + 1)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-h.ctx.Done():
		return false
	}
}
