package source

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"sync"
	"time"

	"github.com/reactive-ccm/ccm/engine/fleet/bundle"
	"github.com/reactive-ccm/ccm/engine/fleet/natsconn"
)

// Source is one remote bundle or data file: the revision in force, how to
// fetch a newer one and where it is cached.
type Source struct {
	loc   Location
	data  bool // a data file rather than a bundle
	b     backend
	cache cache
	opts  *Options
	log   *slog.Logger

	mu  sync.Mutex
	cur *Revision
	// gone is set while the object is missing, so that is reported once.
	gone bool
	// refused identifies the last blob refused (refusal), reported once;
	// lastRefusal says what and why, for the fleet's status.
	refused     string
	lastRefusal *Refusal
}

func newSource(loc Location, data bool, opts *Options) *Source {
	s := &Source{loc: loc, data: data, opts: opts}
	s.log = opts.Logger.With("source", loc.String())
	conn := func() (*natsconn.Conn, error) {
		if opts.NATS == nil {
			return nil, fmt.Errorf("%w: %s needs NATS, and none is configured", ErrUnavailable, loc)
		}
		return opts.NATS.Get()
	}
	switch loc.Scheme {
	case Object:
		s.b = &objectStore{loc: loc, conn: conn, max: opts.MaxBytes, host: opts.Host}
	case KV:
		s.b = &keyValue{loc: loc, conn: conn}
	default:
		s.b = &httpSource{loc: loc, client: opts.HTTPClient, interval: opts.HTTPInterval, max: opts.MaxBytes, signed: opts.signed(loc)}
	}
	return s
}

// Location is where the source lives.
func (s *Source) Location() Location { return s.loc }

// Current returns the revision in force; ok is false when there is none
// (a kvGet key that does not exist).
func (s *Source) Current() (Revision, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur == nil {
		return Revision{}, false
	}
	return *s.cur, true
}

// load fetches the current revision, or takes the cached one when the
// source cannot be reached or its revision is refused.
func (s *Source) load(ctx context.Context) error {
	var err error
	if s.cache, err = openCache(s.opts, s.loc.cacheName()); err != nil {
		return fmt.Errorf("%w: %s: caching: %w", ErrUnavailable, s.loc, err)
	}
	b, err := s.first(ctx)
	if err == nil {
		var rev Revision
		if rev, err = s.accept(b); err == nil {
			s.set(rev)
			return nil
		}
		s.refuse(b, err)
		s.log.Error("refused", "revision", b.id, "error", err)
	}
	rev, cerr := s.cache.read(s.data)
	if cerr == nil {
		cerr = s.usable(rev)
	}
	switch {
	case cerr != nil && errors.Is(err, ErrGone):
		return err
	case errors.Is(cerr, fs.ErrNotExist):
		return fmt.Errorf("%w: %s: %w; and nothing is cached", ErrUnavailable, s.loc, err)
	case errors.Is(cerr, ErrUntrusted):
		return fmt.Errorf("%w: %s: %w; and %w", ErrUnavailable, s.loc, err, cerr)
	case cerr != nil:
		return fmt.Errorf("%w: %s: %w; and the cached copy is unreadable: %v", ErrUnavailable, s.loc, err, cerr)
	}
	rev.Cached = true
	s.log.Warn("unreachable or refused; converging from the cached copy", "revision", rev.ID, "fetched", rev.Fetched.Format(time.RFC3339), "error", err)
	s.set(rev)
	return nil
}

// first fetches at start-up: it waits a little for NATS, not the whole
// fetch timeout, so a host without NATS starts from its cache promptly.
func (s *Source) first(ctx context.Context) (blob, error) {
	if s.loc.NATS() && s.opts.NATS != nil {
		c, err := s.opts.NATS.Get()
		if err != nil {
			return blob{}, err
		}
		wctx, cancel := context.WithTimeout(ctx, s.opts.ConnectWait)
		err = c.Wait(wctx)
		cancel()
		if err != nil {
			return blob{}, err
		}
	}
	fctx, cancel := context.WithTimeout(ctx, s.opts.FetchTimeout)
	defer cancel()
	return s.b.get(fctx, "")
}

// accept verifies a fetched blob and caches it as the revision in force.
func (s *Source) accept(b blob) (Revision, error) {
	a, err := s.verify(b)
	if err != nil {
		return Revision{}, err
	}
	var rev Revision
	if s.data {
		rev, err = s.cache.storeData(b.id, b.data, a)
	} else {
		rev, err = s.cache.storeBundle(b.id, b.data, a, bundle.Limits{})
	}
	if err != nil {
		return rev, err
	}
	return rev, s.cache.raise(a)
}

// Refusal is a revision a source refused, and why.
type Refusal struct {
	Revision string    `json:"revision"`
	Reason   string    `json:"reason"`
	Time     time.Time `json:"time"`
}

// refuse remembers that b was refused for err.
func (s *Source) refuse(b blob, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refused = refusal(b)
	s.lastRefusal = &Refusal{Revision: b.id, Reason: err.Error(), Time: time.Now()}
	if s.opts.OnRefused != nil {
		s.opts.OnRefused()
	}
}

// set puts rev in force.
func (s *Source) set(rev Revision) {
	s.mu.Lock()
	s.cur = &rev
	s.mu.Unlock()
}

// markGood keeps the bundle in force as the last one that compiled; a
// read-only set keeps nothing.
func (s *Source) markGood() {
	rev, ok := s.Current()
	if s.data || !ok || s.cache.d == nil || s.opts.ReadOnly {
		return
	}
	if err := s.cache.keepGood(rev); err != nil {
		s.log.Warn("keeping the bundle that compiled failed; a restart may not fall back to it", "error", err)
	}
}

// fallBack puts the last bundle that compiled in force, when it is not the
// one in force; it reports whether it did.
func (s *Source) fallBack() bool {
	cur, ok := s.Current()
	if s.data || s.cache.d == nil {
		return false
	}
	good, err := s.cache.readGood()
	if err != nil || (ok && good.ID == cur.ID) {
		return false
	}
	if err := s.usable(good); err != nil {
		s.log.Warn("the newest bundle does not compile, and the last one that did is not usable", "error", err)
		return false
	}
	good.Cached = true
	s.log.Warn("the newest bundle does not compile; starting on the last one that did", "revision", cur.ID, "good_revision", good.ID)
	s.set(good)
	return true
}

func (s *Source) id() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur == nil {
		return ""
	}
	return s.cur.ID
}
