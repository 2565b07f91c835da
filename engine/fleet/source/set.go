package source

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Set holds every remote source of a process: the manifest bundles named
// on the command line, the --hiera data and the keys kvGet() read. It is
// safe for concurrent use: templates register keys while manifests load.
type Set struct {
	opts Options
	// ctx bounds fetches made on behalf of templates, which have none.
	ctx context.Context

	mu      sync.Mutex
	sources map[string]*Source
	// watching is the context of Watch once it was called; sources added
	// later start watching at once.
	watching context.Context
	notify   func()
	// tmp holds what a read-only set fetched.
	tmp scratch
}

// NewSet returns an empty set; ctx bounds every fetch it makes.
func NewSet(ctx context.Context, opts Options) *Set {
	s := &Set{opts: opts.withDefaults(), ctx: ctx, sources: map[string]*Source{}}
	s.opts.scratch = s.tmp.open
	return s
}

// Close removes what a read-only set fetched: the manifests it returned
// are gone after, so it is called once they are no longer read, when the
// run ends. For other sets it does nothing.
func (s *Set) Close() error { return s.tmp.remove() }

// Manifest returns the local path of a manifest source: a local path as
// given, or the manifest.yaml of the remote bundle's revision in force,
// fetched (or read from the cache) the first time it is asked for.
func (s *Set) Manifest(raw string) (string, error) {
	loc, err := Parse(raw, s.opts.AllowHTTP)
	if err != nil || !loc.Remote() {
		return loc.Path, err
	}
	if loc.Scheme == KV {
		return "", fmt.Errorf("%w: %s: a manifest comes from a file, obj:// or http(s)://; kv:// holds data", ErrLocation, raw)
	}
	src, err := s.source(loc, false)
	if err != nil {
		return "", err
	}
	rev, _ := src.Current()
	return rev.Manifest, nil
}

// Data returns a data source's content. local is set for a local path,
// which the caller reads itself (and watches).
func (s *Set) Data(raw string) (data []byte, local string, err error) {
	loc, err := Parse(raw, s.opts.AllowHTTP)
	if err != nil || !loc.Remote() {
		return nil, loc.Path, err
	}
	if loc.Scheme == Object {
		return nil, "", fmt.Errorf("%w: %s: data comes from a file, kv:// or http(s)://", ErrLocation, raw)
	}
	src, err := s.source(loc, true)
	if err != nil {
		return nil, "", err
	}
	rev, _ := src.Current()
	return rev.Data, "", nil
}

// Get returns the value of key in a NATS key-value bucket, for kvGet();
// found is false when the key does not exist (it is watched all the same,
// so its creation reloads).
func (s *Set) Get(bucket, key string) ([]byte, bool, error) {
	loc, err := Parse("kv://"+bucket+"/"+key, false)
	if err != nil {
		return nil, false, err
	}
	src, err := s.source(loc, true)
	if errors.Is(err, ErrGone) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	rev, ok := src.Current()
	return rev.Data, ok, nil
}

// source returns the source at loc, loading it on first use. A source
// whose object is missing is kept (and watched) but has no revision.
func (s *Set) source(loc Location, data bool) (*Source, error) {
	key := fmt.Sprintf("%t %s", data, loc.String())
	if loc.URL != nil {
		key = fmt.Sprintf("%t %s", data, loc.URL.String())
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if src, ok := s.sources[key]; ok {
		if _, has := src.Current(); !has {
			return src, fmt.Errorf("%w: %s", ErrGone, loc)
		}
		return src, nil
	}
	if err := s.opts.admit(loc, data); err != nil {
		return nil, err
	}
	src := newSource(loc, data, &s.opts)
	err := src.load(s.ctx)
	if err != nil && !errors.Is(err, ErrGone) {
		return nil, err
	}
	s.sources[key] = src
	if s.watching != nil {
		go src.run(s.watching, s.notify)
	}
	return src, err
}

// Watch keeps every source, present and future, current until ctx ends,
// calling notify after each new revision is put in force. notify must not
// block.
func (s *Set) Watch(ctx context.Context, notify func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.watching, s.notify = ctx, notify
	for _, src := range s.sources {
		go src.run(ctx, notify)
	}
}

// Sum identifies the revisions in force: it changes whenever one does.
func (s *Set) Sum() []byte {
	h := sha256.New()
	for _, st := range s.InForce() {
		fmt.Fprintf(h, "%s\x00%s\x00", st.Source, st.Revision)
	}
	return h.Sum(nil)
}

// Fingerprint identifies the revisions of the kv:// sources in force, for
// the fingerprints of templates that may call kvGet(): a bundle's new
// revision does not change it, so its unchanged resources stay as they are.
func (s *Set) Fingerprint() string {
	h := sha256.New()
	for _, st := range s.InForce() {
		if strings.HasPrefix(st.Source, string(KV)+"://") {
			fmt.Fprintf(h, "%s\x00%s\x00", st.Source, st.Revision)
		}
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// MarkGood records the bundles in force as ones that compiled: each is
// copied aside, so a later start whose newest bundle does not compile can
// fall back to it.
func (s *Set) MarkGood() {
	for _, src := range s.all() {
		src.markGood()
	}
}

// FallBack puts in force, for every bundle source, the last revision that
// compiled where it differs from the one in force, and reports whether any
// did: a start-up whose manifests do not compile tries again on them.
func (s *Set) FallBack() bool {
	any := false
	for _, src := range s.all() {
		any = src.fallBack() || any
	}
	return any
}

func (s *Set) all() []*Source {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*Source, 0, len(s.sources))
	for _, src := range s.sources {
		out = append(out, src)
	}
	return out
}

// Status is a source and its revision in force.
type Status struct {
	Source   string `json:"source"`
	Revision string `json:"revision"`
	// Cached is set when the revision came from the cache at start-up.
	Cached bool `json:"cached,omitempty"`
	// Refused is the last revision the source refused, if any.
	Refused *Refusal `json:"refused,omitempty"`
}

// InForce lists the sources and their revisions, sorted by source.
func (s *Set) InForce() []Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Status, 0, len(s.sources))
	for _, src := range s.sources {
		rev, _ := src.Current()
		src.mu.Lock()
		refused := src.lastRefusal
		src.mu.Unlock()
		out = append(out, Status{Source: src.loc.String(), Revision: rev.ID, Cached: rev.Cached, Refused: refused})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Source < out[j].Source })
	return out
}
