package source

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/reactive-ccm/ccm/engine/fleet/natsconn"
)

// run keeps the source current until ctx ends: its watch says when to
// look, a look fetches what changed, and notify is called for each new
// revision put in force. Failures back off; nothing here ends the process.
func (s *Source) run(ctx context.Context, notify func()) {
	kick := make(chan struct{}, 1)
	var fetching inflight
	look := func() {
		if s.loc.NATS() {
			fetching.supersede()
		}
		select {
		case kick <- struct{}{}:
		default:
		}
	}
	go s.watchLoop(ctx, look)
	var retry <-chan time.Time
	for failures := 0; ; {
		// While backing off, only the retry looks: it fetches the latest
		// anyway, and polls must not defeat the back-off.
		looks := kick
		if retry != nil {
			looks = nil
		}
		select {
		case <-ctx.Done():
			return
		case <-looks:
		case <-retry:
		}
		retry = nil
		fctx, done := fetching.start(ctx)
		changed, err := s.refresh(fctx)
		done()
		if err != nil && errors.Is(context.Cause(fctx), errSuperseded) {
			// A newer change is pending in kick: fetch that one.
			continue
		}
		if err != nil {
			d := backoff(failures)
			failures++
			s.log.Warn("fetching failed; the revision in force stays", "error", err, "retry_in", d.Round(time.Millisecond))
			retry = time.After(d)
			continue
		}
		failures = 0
		if changed {
			notify()
		}
	}
}

// inflight is the fetch under way, which a NATS source's next change
// supersedes: an object replaced while it is read loses its chunks, and
// reading it would wait out the whole fetch timeout.
type inflight struct {
	mu     sync.Mutex
	cancel context.CancelCauseFunc
}

// start returns the context of a new fetch and the function that ends it.
func (f *inflight) start(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	f.mu.Lock()
	f.cancel = cancel
	f.mu.Unlock()
	return ctx, func() {
		f.mu.Lock()
		f.cancel = nil
		f.mu.Unlock()
		cancel(nil)
	}
}

// supersede cancels the fetch under way, if any.
func (f *inflight) supersede() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.cancel != nil {
		f.cancel(errSuperseded)
	}
}

// refresh fetches a newer revision if there is one and puts it in force.
// Only a failure to reach the source is an error: a refused revision is
// reported and kept out until it changes again.
func (s *Source) refresh(ctx context.Context) (bool, error) {
	fctx, cancel := context.WithTimeout(ctx, s.opts.FetchTimeout)
	defer cancel()
	b, err := s.b.get(fctx, s.id())
	switch {
	case errors.Is(err, errUnchanged):
		s.present()
		return false, nil
	case errors.Is(err, ErrGone):
		s.mu.Lock()
		first := !s.gone
		s.gone = true
		s.mu.Unlock()
		if first {
			s.log.Warn("removed from its source; the revision in force stays until a new one is published", "revision", s.id(), "error", err)
		}
		return false, nil
	case err != nil:
		return false, err
	}
	s.present()
	s.mu.Lock()
	seen := refusal(b) == s.refused
	s.mu.Unlock()
	if seen {
		return false, nil
	}
	rev, err := s.accept(b)
	if err != nil {
		s.refuse(b, err)
		s.log.Error("refused a new revision; the revision in force stays", "revision", b.id, "error", err)
		return false, nil
	}
	s.set(rev)
	s.log.Info("fetched a new revision", "revision", rev.ID)
	return true, nil
}

// present notes that the object exists: no longer gone, and a revision
// taken from the cache at start-up is confirmed.
func (s *Source) present() {
	s.mu.Lock()
	s.gone = false
	if s.cur != nil && s.cur.Cached {
		cur := *s.cur
		cur.Cached = false
		s.cur = &cur
	}
	s.mu.Unlock()
}

// watchLoop runs the backend's watch for as long as ctx lives, re-arming
// it when it breaks: at once after a reconnect, with back-off otherwise.
func (s *Source) watchLoop(ctx context.Context, look func()) {
	failures := 0
	for ctx.Err() == nil {
		start := time.Now()
		err := s.b.watch(ctx, look)
		if ctx.Err() != nil {
			return
		}
		if errors.Is(err, natsconn.ErrNotConnected) {
			continue
		}
		if time.Since(start) > time.Minute {
			failures = 0
		}
		d := backoff(failures)
		failures++
		s.log.Warn("watch broke; re-arming", "error", err, "retry_in", d.Round(time.Millisecond))
		select {
		case <-ctx.Done():
		case <-time.After(d):
		}
	}
}
