package source

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/reactive-ccm/ccm/engine/bundle"
	"github.com/reactive-ccm/ccm/engine/natsconn"
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

	mu   sync.Mutex
	cur  *Revision
	rec  record
	good string // cache entry of the last revision that compiled
	// gone is set while the object is missing, so that is reported once.
	gone bool
	// refused is the ID of a revision refused, reported once.
	refused string
}

func newSource(loc Location, data bool, opts *Options) *Source {
	s := &Source{loc: loc, data: data, opts: opts, cache: cache{dir: opts.Cache + "/" + loc.cacheName()}}
	s.log = opts.Logger.With("source", loc.String())
	conn := func() (*natsconn.Conn, error) {
		if opts.NATS == nil {
			return nil, fmt.Errorf("%w: %s needs NATS, and none is configured", ErrUnavailable, loc)
		}
		return opts.NATS.Get()
	}
	switch loc.Scheme {
	case Object:
		s.b = &objectStore{loc: loc, conn: conn, max: opts.MaxBytes}
	case KV:
		s.b = &keyValue{loc: loc, conn: conn}
	default:
		s.b = &httpSource{loc: loc, client: opts.HTTPClient, interval: opts.HTTPInterval, max: opts.MaxBytes, signed: !data && len(opts.Trust) > 0}
	}
	if r, err := s.cache.read("good"); err == nil {
		s.good = r.Entry
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
	b, err := s.first(ctx)
	if err == nil {
		var rec record
		var rev Revision
		if rev, rec, err = s.accept(b); err == nil {
			s.set(rev, rec)
			return nil
		}
		s.refused = b.id
		s.log.Error("refused", "revision", b.id, "error", err)
	}
	rec, cerr := s.cache.read("current")
	if cerr != nil {
		if errors.Is(err, ErrGone) {
			return err
		}
		return fmt.Errorf("%w: %s: %w; and nothing is cached", ErrUnavailable, s.loc, err)
	}
	rev, cerr := s.cache.revision(rec, s.data)
	if cerr != nil {
		return fmt.Errorf("%w: %s: %w; and the cached copy is unreadable: %v", ErrUnavailable, s.loc, err, cerr)
	}
	rev.Cached = true
	s.log.Warn("unreachable or refused; converging from the cached copy", "revision", rev.ID, "fetched", rev.Fetched.Format(time.RFC3339), "error", err)
	s.set(rev, rec)
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

// accept verifies and caches a fetched blob.
func (s *Source) accept(b blob) (Revision, record, error) {
	rev := Revision{ID: b.id, Fetched: time.Now()}
	if s.data {
		rec, err := s.cache.storeData(b.id, b.data)
		rev.Data = b.data
		return rev, rec, err
	}
	if err := bundle.Verify(b.data, b.sig, s.opts.Trust); err != nil {
		return rev, record{}, err
	}
	rec, err := s.cache.storeBundle(b.id, b.data, bundle.Limits{})
	if err != nil {
		return rev, rec, err
	}
	rev.Manifest = s.cache.dir + "/" + rec.Entry + "/" + rec.Manifest
	return rev, rec, nil
}

// set puts rev in force and records it in the cache.
func (s *Source) set(rev Revision, rec record) {
	s.mu.Lock()
	s.cur, s.rec = &rev, rec
	good := s.good
	s.mu.Unlock()
	if rev.Cached {
		return
	}
	if err := s.cache.write("current", rec); err != nil {
		s.log.Warn("caching the revision failed; an offline start may use an older one", "error", err)
	}
	s.cache.prune(rec.Entry, good)
}

// markGood records the revision in force as one that compiled.
func (s *Source) markGood() {
	s.mu.Lock()
	if s.cur == nil || s.good == s.rec.Entry {
		s.mu.Unlock()
		return
	}
	rec := s.rec
	s.good = rec.Entry
	s.mu.Unlock()
	if err := s.cache.write("good", rec); err != nil {
		s.log.Warn("recording the good revision failed", "error", err)
	}
	s.cache.prune(rec.Entry)
}

func (s *Source) id() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur == nil {
		return ""
	}
	return s.cur.ID
}
