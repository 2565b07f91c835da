package registry

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/registration"
)

// cache is this process's copy of the registry, read by one ordered
// consumer over every registration subject once something looks up.
type cache struct {
	mu      sync.Mutex
	started bool
	// entries holds the current entry of each subject.
	entries map[string]cached
	// synced is closed once the stream's backlog was read.
	synced     chan struct{}
	syncedOnce sync.Once
	// failed is closed once a reader failed to start: a lookup then
	// says why at once instead of waiting out LookupWait.
	failed     chan struct{}
	failedOnce sync.Once
	// err is why the stream cannot be read, while it cannot.
	err  error
	subs map[*sub]struct{}
}

type cached struct {
	entry   *registration.Entry
	payload []byte
}

// sub is a resource whose queries are watched.
type sub struct {
	lookups *resources.Lookups
	notify  func()
}

func (c *cache) init() {
	c.entries, c.subs = map[string]cached{}, map[*sub]struct{}{}
	c.synced, c.failed = make(chan struct{}), make(chan struct{})
}

// start begins reading the stream, once.
func (r *Registry) start() {
	r.cache.mu.Lock()
	defer r.cache.mu.Unlock()
	if !r.cache.started {
		r.cache.started = true
		go r.read()
	}
}

// read keeps the copy current until r.ctx ends, starting again, with
// back-off, while the stream cannot be read.
func (r *Registry) read() {
	for n := 1; r.ctx.Err() == nil; n++ {
		initial, stop, err := r.consume(r.ctx, registration.All, r.apply)
		if err == nil {
			if initial == 0 {
				r.cache.syncedOnce.Do(func() { close(r.cache.synced) })
			}
			r.setErr(nil)
			<-r.ctx.Done()
			stop()
			return
		}
		r.cache.failedOnce.Do(func() { close(r.cache.failed) })
		if r.setErr(err) {
			r.opts.Logger.Warn("cannot read the registration stream; retrying in the background", "stream", r.opts.Stream, "error", err)
		}
		t := r.opts.Clock.NewTimer(backoff(n))
		select {
		case <-r.ctx.Done():
		case <-t.C():
		}
		t.Stop()
	}
}

// setErr records why the stream cannot be read, reporting whether that
// is news.
func (r *Registry) setErr(err error) bool {
	r.cache.mu.Lock()
	defer r.cache.mu.Unlock()
	news := err != nil && r.cache.err == nil
	r.cache.err = err
	return news
}

// apply takes one change into the copy and wakes the resources it
// concerns. A refresh that changes nothing wakes nobody.
func (r *Registry) apply(ev Event) {
	c := &r.cache
	c.mu.Lock()
	old, had := c.entries[ev.Subject]
	changed := false
	switch {
	case ev.Action == Remove:
		delete(c.entries, ev.Subject)
		changed = had
	case !had || !bytes.Equal(old.payload, ev.payload):
		c.entries[ev.Subject] = cached{entry: ev.Entry, payload: ev.payload}
		changed = true
	}
	// The backlog is what stands, not news: only what comes after it
	// wakes anyone.
	wasSynced := isClosed(c.synced)
	if ev.pending == 0 {
		c.syncedOnce.Do(func() { close(c.synced) })
	}
	var wake []func()
	if changed && wasSynced {
		for s := range c.subs {
			if s.lookups.Concerns(ev.Subject) {
				wake = append(wake, s.notify)
			}
		}
	}
	c.mu.Unlock()
	for _, notify := range wake {
		notify()
	}
}

// Lookup returns the entries f selects, sorted by address, then port, as
// upstream's lookup does. The first lookup waits, up to LookupWait, for
// the stream to be read.
func (r *Registry) Lookup(f registration.Filter) (registration.Entries, error) {
	r.start()
	t := time.NewTimer(r.opts.LookupWait)
	defer t.Stop()
	select {
	case <-r.cache.synced:
	case <-r.cache.failed:
	case <-t.C:
	case <-r.ctx.Done():
		return nil, fmt.Errorf("%w: %w", ErrUnavailable, context.Cause(r.ctx))
	}
	if !isClosed(r.cache.synced) {
		return nil, r.unavailable()
	}
	return r.selected(f.Matches), nil
}

// selected returns the cached entries whose subjects match selects,
// sorted by address, then port, then subject: the same set always in the
// same order, so that its digest says whether it changed.
func (r *Registry) selected(match func(subject string) bool) registration.Entries {
	r.cache.mu.Lock()
	out := registration.Entries{}
	var subjects []string
	for s, c := range r.cache.entries {
		if match(s) {
			out = append(out, c.entry)
			subjects = append(subjects, s)
		}
	}
	r.cache.mu.Unlock()
	sort.Sort(bySubject{out, subjects})
	return out
}

// bySubject sorts entries by address, then port, then subject.
type bySubject struct {
	es       registration.Entries
	subjects []string
}

func (b bySubject) Len() int { return len(b.es) }
func (b bySubject) Swap(i, j int) {
	b.es[i], b.es[j] = b.es[j], b.es[i]
	b.subjects[i], b.subjects[j] = b.subjects[j], b.subjects[i]
}
func (b bySubject) Less(i, j int) bool {
	ei, ej := b.es[i], b.es[j]
	if ei.Address != ej.Address {
		return ei.Address < ej.Address
	}
	if pi, pj := ei.PortNumber(), ej.PortNumber(); pi != pj {
		return pi < pj
	}
	return b.subjects[i] < b.subjects[j]
}

func (r *Registry) unavailable() error {
	r.cache.mu.Lock()
	defer r.cache.mu.Unlock()
	if r.cache.err != nil {
		return fmt.Errorf("%w: %s: %w", ErrUnavailable, r.opts.Stream, r.cache.err)
	}
	return fmt.Errorf("%w: %s: not read within %s", ErrUnavailable, r.opts.Stream, r.opts.LookupWait)
}

func isClosed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// Watch calls notify whenever an entry one of l's queries selects comes,
// changes or goes, until cancel is called, and at once when one that l
// found while loading already did. notify must not block. Only
// lookups read the stream: until l's resource makes one, nothing is read
// for it.
func (r *Registry) Watch(l *resources.Lookups, notify func()) (cancel func()) {
	s := &sub{lookups: l, notify: notify}
	r.cache.mu.Lock()
	r.cache.subs[s] = struct{}{}
	r.cache.mu.Unlock()
	// What the resource found while its manifest loaded may have changed
	// before this watch began: then it is told now (not from the caller's
	// goroutine, which may hold its own locks).
	if isClosed(r.cache.synced) && l.Stale(func(match func(string) bool) string { return r.selected(match).Digest() }) {
		go notify()
	}
	return func() {
		r.cache.mu.Lock()
		delete(r.cache.subs, s)
		r.cache.mu.Unlock()
	}
}
