package resources

import "sync"

// Lookups records the registry queries a resource's templates make as
// they render (registrations()), so that watch mode renders the resource
// again when what one of them finds changes. The graph gives each
// resource its own, through a Scoper. Safe for concurrent use.
type Lookups struct {
	mu sync.Mutex
	// queries holds, by query, the test of whether a change of the thing
	// named (a registration's subject) concerns it.
	queries map[string]func(subject string) bool
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
