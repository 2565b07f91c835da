package resources

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"sync"
)

// Lookups records the registry queries a resource's templates make as
// they render (registrations()), so that watch mode renders the resource
// again when what one of them finds changes. The graph gives each
// resource its own, through a Scoper. Safe for concurrent use.
type Lookups struct {
	mu sync.Mutex
	// queries holds, by query, the test of whether a change of the thing
	// named (a registration's subject) concerns it.
	queries map[string]func(subject string) bool
	// sealed is set once the resource was built: queries made before
	// were made while the manifest loaded.
	sealed bool
	// loaded holds what each query made while loading found.
	loaded map[string]string
}

// Add records a query: key identifies it, match says whether a change of
// a subject concerns it. It is called before the query runs, so a change
// that races the query is never missed.
func (l *Lookups) Add(key string, match func(subject string) bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.queries == nil {
		l.queries = map[string]func(string) bool{}
	}
	if _, ok := l.queries[key]; !ok {
		l.queries[key] = match
	}
}

// Found records what a query found, as a digest: one made while the
// manifest loads is part of the resource's desired state.
func (l *Lookups) Found(key, digest string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.sealed {
		return
	}
	if l.loaded == nil {
		l.loaded = map[string]string{}
	}
	l.loaded[key] = digest
}

// Seal marks the end of loading: the graph calls it once the resource is
// built.
func (l *Lookups) Seal() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sealed = true
}

// Loaded is a digest of what the queries made while loading found, ""
// when none was: a change of it changes the resource, which only a reload
// can take in.
func (l *Lookups) Loaded() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.loaded) == 0 {
		return ""
	}
	keys := make([]string, 0, len(l.loaded))
	for k := range l.loaded {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := sha256.New()
	for _, k := range keys {
		h.Write([]byte(k + "\x00" + l.loaded[k] + "\x00"))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Stale reports whether a query made while loading would find something
// else now: find returns the digest of what the query matching subjects
// with match finds. A change that came between the query and the watch
// on it is caught so.
func (l *Lookups) Stale(find func(match func(subject string) bool) string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for key, digest := range l.loaded {
		if match, ok := l.queries[key]; ok && find(match) != digest {
			return true
		}
	}
	return false
}

// Concerns reports whether a change of subject concerns one of the
// queries made so far.
func (l *Lookups) Concerns(subject string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, match := range l.queries {
		if match(subject) {
			return true
		}
	}
	return false
}

// Scoper is a Templates that can attribute the registry queries its
// templates make to one resource: Scope returns the templates that resource
// uses, recording into l.
type Scoper interface {
	Scope(l *Lookups) Templates
}
