package systemd

import "sync"

// watched is one unit and everyone watching it.
type watched struct {
	regs map[*registration]struct{}
}

// registration is one Watch call.
type registration struct {
	// mu serialises notify calls and makes cancel wait for a running one.
	mu        sync.Mutex
	notify    func()
	cancelled bool
}

func (r *registration) fire() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.cancelled {
		r.notify()
	}
}

// Watch registers notify to be called whenever unit ("nginx.service", the
// unit's real name, not an alias) may have changed: its properties changed,
// unit files changed, systemd reloaded or re-executed, or the hub
// reconnected. notify is never called concurrently with itself for one
// registration; it must return quickly (mark something dirty) and must
// not call cancel. Watch starts the hub if needed and does not block.
//
// cancel drops the registration; once it returns notify is not called
// again. The hub releases its reference on the unit when no registration
// needs it.
func (h *Hub) Watch(unit string, notify func()) (cancel func()) {
	r := &registration{notify: notify}
	h.mu.Lock()
	w := h.units[unit]
	if w == nil {
		w = &watched{regs: map[*registration]struct{}{}}
		h.units[unit] = w
	}
	w.regs[r] = struct{}{}
	h.mu.Unlock()
	h.wake()
	h.run()
	var once sync.Once
	return func() { once.Do(func() { h.unwatch(unit, r) }) }
}

func (h *Hub) unwatch(unit string, r *registration) {
	r.mu.Lock()
	r.cancelled = true
	r.mu.Unlock()
	h.mu.Lock()
	if w := h.units[unit]; w != nil {
		delete(w.regs, r)
		if len(w.regs) == 0 {
			delete(h.units, unit)
		}
	}
	h.mu.Unlock()
	h.wake()
}

// wake tells the loop that the set of watched units changed.
func (h *Hub) wake() {
	select {
	case h.kick <- struct{}{}:
	default: // a wake-up is already pending
	}
}

// watchedUnits lists the units someone watches.
func (h *Hub) watchedUnits() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]string, 0, len(h.units))
	for u := range h.units {
		out = append(out, u)
	}
	return out
}

// notifyUnit calls every registration of unit.
func (h *Hub) notifyUnit(unit string) {
	for _, r := range h.registrations(unit) {
		r.fire()
	}
}

// notifyAll calls every registration.
func (h *Hub) notifyAll() {
	for _, r := range h.registrations("") {
		r.fire()
	}
}

// registrations copies the registrations of unit, or of every unit when
// unit is "", so notify runs without the hub's lock.
func (h *Hub) registrations(unit string) []*registration {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []*registration
	add := func(w *watched) {
		for r := range w.regs {
			out = append(out, r)
		}
	}
	if unit != "" {
		if w := h.units[unit]; w != nil {
			add(w)
		}
		return out
	}
	for _, w := range h.units {
		add(w)
	}
	return out
}
