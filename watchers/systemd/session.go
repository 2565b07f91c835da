package systemd

import (
	"time"

	godbus "github.com/godbus/dbus/v5"
)

// session is the loop's state for one connection; only the loop touches it.
type session struct {
	hub    *Hub
	link   *link
	poller *poller // nil when signals are used
	// refs maps each referenced unit to its object path; paths is the
	// reverse, for routing signals (an alias resolves to the real unit's
	// path).
	refs  map[string]godbus.ObjectPath
	paths map[godbus.ObjectPath]string
}

// run routes signals, watched-set changes and poll ticks until the
// connection drops or the hub closes.
func (s *session) run(poll time.Duration) {
	var tick <-chan time.Time
	if poll > 0 {
		t := time.NewTicker(poll)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case sig, ok := <-s.link.signals:
			if !ok {
				return
			}
			s.handle(sig)
		case <-s.hub.kick:
			s.syncRefs()
		case done := <-s.hub.syncs:
			if !s.sync(done) {
				return
			}
		case <-tick:
			s.poller.poll(s)
		case <-s.link.lost():
			return
		case <-s.hub.ctx.Done():
			return
		}
	}
}

// sync serves one Sync call, closing done; false when the connection
// dropped.
func (s *session) sync(done chan struct{}) bool {
	if !s.drain() {
		return false
	}
	s.syncRefs()
	if s.poller != nil {
		// A poll now gives new units the state later changes are told
		// from, and notifies the changes made so far.
		s.poller.poll(s)
	}
	close(done)
	return true
}

// drain handles the signals already received; false when the connection
// dropped.
func (s *session) drain() bool {
	for {
		select {
		case sig, ok := <-s.link.signals:
			if !ok {
				return false
			}
			s.handle(sig)
		default:
			return true
		}
	}
}

// handle turns one signal into notifications.
func (s *session) handle(sig *godbus.Signal) {
	switch sig.Name {
	case sigProperties:
		if unit, ok := s.paths[sig.Path]; ok {
			s.hub.notifyUnit(unit)
		}
	case sigUnitFiles:
		s.hub.notifyAll()
	case sigReloading:
		// Reloading(true) starts a reload and Reloading(false) ends it; the
		// units are worth checking only once it is over.
		if starting, ok := body[bool](sig, 0); ok && !starting {
			s.hub.notifyAll()
		}
	case sigNameOwner:
		// systemd re-executed (or the bus restarted its activation): the new
		// instance may have lost subscribers and references.
		if owner, ok := body[string](sig, 2); ok && owner != "" {
			s.resync()
		}
	}
}

// resync subscribes and references again after systemd came back under a
// new bus identity, then notifies everyone.
func (s *session) resync() {
	if s.poller == nil {
		if err := s.link.resubscribe(s.hub.ctx); err != nil {
			s.hub.opts.Logger.Warn("systemd: re-subscribing after systemd restarted", "error", err)
		}
	}
	for unit := range s.refs {
		delete(s.refs, unit)
	}
	s.syncRefs()
	s.hub.notifyAll()
}

// body returns the i'th argument of a signal when it has type T.
func body[T any](sig *godbus.Signal, i int) (T, bool) {
	var zero T
	if len(sig.Body) <= i {
		return zero, false
	}
	v, ok := sig.Body[i].(T)
	return v, ok
}
