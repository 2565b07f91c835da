package registry

import (
	"bytes"
	"context"
	"sync"
	"time"

	"github.com/reactive-ccm/ccm/resources/registration"
)

// sendTimeout bounds one publication.
const sendTimeout = 5 * time.Second

// publisher is what this host announces.
type publisher struct {
	mu sync.Mutex
	// owners holds, by owner (a vertex ID), its entries and whether it
	// stands stable.
	owners map[string]owner
	// subjects holds what was last done about each subject an owner
	// names or this process published.
	subjects map[string]*subjectState
	// failures counts the failed publications in a row, for back-off;
	// warned is set once a streak was logged.
	failures int
	warned   bool
	wake     chan struct{}
}

type owner struct {
	entries []registration.Entry
	stable  bool
}

// subjectState is a subject's last publication.
type subjectState struct {
	// live is set once the entry was published, until it is withdrawn;
	// payload is what was published.
	live    bool
	payload []byte
	// due is when a live entry must be published again, before it
	// expires; zero when it does not expire.
	due time.Time
	// retry is when a failed publication may be tried again.
	retry time.Time
}

func (p *publisher) init() {
	p.owners, p.subjects = map[string]owner{}, map[string]*subjectState{}
	p.wake = make(chan struct{}, 1)
}

// Announce records that owner (a resource) stands stable, or not, with
// its entries: while stable they are published and kept alive; when not,
// or once entries leave the list, they are withdrawn. It returns at once
// (the engine calls it with its lock held); the publishing loop does the
// rest. Without a destination it does nothing.
func (r *Registry) Announce(owner string, entries []registration.Entry, stable bool) {
	if r.opts.Publish == "" {
		return
	}
	r.pub.mu.Lock()
	r.pub.owners[owner] = ownerOf(entries, stable)
	r.pub.mu.Unlock()
	select {
	case r.pub.wake <- struct{}{}:
	default:
	}
}

func ownerOf(entries []registration.Entry, stable bool) owner {
	return owner{entries: entries, stable: stable && len(entries) > 0}
}

// action is one publication the loop decided.
type action struct {
	subject string
	// entry is nil for a withdrawal.
	entry   *registration.Entry
	payload []byte
}

// plan decides what to publish and withdraw at now, and when to look
// again when nothing is due before. Callers hold r.pub.mu.
func (r *Registry) plan(now time.Time) (todo []action, next time.Time) {
	p := &r.pub
	want := map[string]*registration.Entry{}
	named := map[string]bool{}
	for _, o := range p.owners {
		for i := range o.entries {
			s := o.entries[i].Subject()
			named[s] = true
			if o.stable {
				want[s] = &o.entries[i]
			}
		}
	}
	soonest := func(t time.Time) {
		if !t.IsZero() && (next.IsZero() || t.Before(next)) {
			next = t
		}
	}
	for s := range union(named, p.subjects) {
		st := p.subjects[s]
		if st != nil && now.Before(st.retry) {
			soonest(st.retry)
			continue
		}
		e, wanted := want[s]
		switch {
		case wanted:
			payload, _ := e.Payload()
			if st == nil || !st.live || !bytes.Equal(st.payload, payload) || (!st.due.IsZero() && !now.Before(st.due)) {
				todo = append(todo, action{subject: s, entry: e, payload: payload})
				continue
			}
			soonest(st.due)
		case st == nil || st.live:
			todo = append(todo, action{subject: s})
		case !named[s]:
			delete(p.subjects, s)
		}
	}
	return todo, next
}

func union(named map[string]bool, known map[string]*subjectState) map[string]bool {
	out := make(map[string]bool, len(named)+len(known))
	for s := range named {
		out[s] = true
	}
	for s := range known {
		out[s] = true
	}
	return out
}

// do carries out one action and records its outcome.
func (r *Registry) do(ctx context.Context, a action) error {
	ctx, cancel := context.WithTimeout(ctx, sendTimeout)
	defer cancel()
	dest := r.opts.Publish
	l := r.limitsOf(ctx)
	msg := r.markerMsg(a.subject, dest, l)
	if a.entry != nil {
		msg = r.entryMsg(a.entry, a.payload, dest)
	}
	err := r.send(ctx, msg, dest)
	now := r.opts.Clock.Now()
	p := &r.pub
	p.mu.Lock()
	defer p.mu.Unlock()
	st := p.subjects[a.subject]
	if st == nil {
		st = &subjectState{}
		p.subjects[a.subject] = st
	}
	if err != nil {
		p.failures++
		st.retry = now.Add(backoff(p.failures))
		r.forgetLimits()
		if !p.warned {
			p.warned = true
			r.opts.Logger.Warn("publishing registrations failed; retrying in the background", "stream", r.opts.Stream, "error", err)
		}
		return err
	}
	p.failures, p.warned, st.retry = 0, false, time.Time{}
	r.logOutcome(a, st)
	st.live, st.payload, st.due = a.entry != nil, a.payload, time.Time{}
	if a.entry != nil {
		if every := refreshEvery(a.entry, l); every > 0 {
			st.due = now.Add(every)
		}
	}
	return nil
}

// logOutcome reports an entry that came or went, not its refreshes.
func (r *Registry) logOutcome(a action, st *subjectState) {
	switch {
	case a.entry != nil && !st.live:
		r.opts.Logger.Info("registered", "service", a.entry.Service, "cluster", a.entry.Cluster, "protocol", a.entry.Protocol, "address", a.entry.Address, "port", a.entry.Port)
	case a.entry == nil && st.live:
		e, _ := registration.FromSubject(a.subject)
		r.opts.Logger.Info("withdrew registration", "service", e.Service, "cluster", e.Cluster, "protocol", e.Protocol, "address", e.Address)
	}
}

// refreshEvery is how often e is published again while it stands: at
// half its life, which is its TTL, else the stream's max age; 0 when it
// does not expire.
func refreshEvery(e *registration.Entry, l limits) time.Duration {
	if e.TTL.IsNever() {
		return 0
	}
	life := e.TTL.Duration()
	if life == 0 {
		life = l.maxAge
	}
	return life / 2
}

// backoff is the wait after n failures in a row: 1s doubling to 30s.
func backoff(n int) time.Duration {
	d := time.Second << min(n-1, 5)
	return min(d, 30*time.Second)
}

// pass carries out what is due now, and returns when to look again and
// the last failure.
func (r *Registry) pass(ctx context.Context) (next time.Time, err error) {
	todo, next := r.due()
	for _, a := range todo {
		if e := r.do(ctx, a); e != nil {
			err = e
		}
	}
	if len(todo) > 0 {
		// What was done changes what is due: plan again at once.
		return r.opts.Clock.Now(), err
	}
	return next, err
}

// Run publishes, withdraws and refreshes this host's registrations until
// ctx ends.
func (r *Registry) Run(ctx context.Context) {
	t := r.opts.Clock.NewTimer(time.Hour)
	defer t.Stop()
	for {
		next, _ := r.pass(ctx)
		if !next.IsZero() && !next.After(r.opts.Clock.Now()) {
			if ctx.Err() != nil {
				return
			}
			continue
		}
		wait := time.Hour
		if !next.IsZero() {
			wait = next.Sub(r.opts.Clock.Now())
		}
		t.Reset(wait)
		select {
		case <-ctx.Done():
			return
		case <-r.pub.wake:
		case <-t.C():
		}
	}
}

// Sync carries out what is due now, for a run that exits next: it
// returns once every announcement was published or withdrawn, or with the
// last failure when one could not be (NATS away: ctx bounds the wait).
func (r *Registry) Sync(ctx context.Context) error {
	for {
		todo, _ := r.due()
		if len(todo) == 0 {
			return nil
		}
		var err error
		for _, a := range todo {
			if e := r.do(ctx, a); e != nil {
				err = e
			}
		}
		if err != nil {
			return err
		}
	}
}

// due plans at the clock's now.
func (r *Registry) due() ([]action, time.Time) {
	r.pub.mu.Lock()
	defer r.pub.mu.Unlock()
	return r.plan(r.opts.Clock.Now())
}
