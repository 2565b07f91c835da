package resources

import (
	"slices"
	"strings"
	"sync"
)

// Redacted replaces a sensitive value wherever it would be shown.
const Redacted = "[redacted]"

// MinSecret is the shortest value cut out of free text (Secrets, an
// archive's credentials): cutting shorter ones out of messages would cut
// up ordinary words and numbers.
const MinSecret = 4

// Secrets collects the values a sensitive resource (`sensitive: true`)
// must not show, as it resolves them, and cuts them out of text. A nil
// *Secrets records nothing and redacts nothing. It is safe for concurrent
// use.
type Secrets struct {
	mu sync.RWMutex
	// values are kept longest first, so a value containing another is
	// cut out whole.
	values []string
	// sealed is set once the resource is built. Values resolved after it,
	// by deferred templates at each run, are recent: only the last
	// MaxRecentSecrets are kept, so a template resolving to a new value
	// at every run ({{ now() }}) does not grow the set for ever.
	sealed bool
	recent []string
}

// MaxRecentSecrets is how many values resolved at run time a sensitive
// resource keeps hiding: those of many more runs than an event can show.
const MaxRecentSecrets = 256

// Add records v.
func (s *Secrets) Add(v string) {
	if s == nil || len(v) < MinSecret {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	i, found := slices.BinarySearchFunc(s.values, v, longestFirst)
	if found {
		return
	}
	s.values = slices.Insert(s.values, i, v)
	if !s.sealed {
		return
	}
	s.recent = append(s.recent, v)
	if len(s.recent) > MaxRecentSecrets {
		old := s.recent[0]
		s.recent = slices.Delete(s.recent, 0, 1)
		if j, ok := slices.BinarySearchFunc(s.values, old, longestFirst); ok {
			s.values = slices.Delete(s.values, j, j+1)
		}
	}
}

// Seal ends the resource's build: the values recorded so far are hidden
// for as long as it lives, later ones while they are recent.
func (s *Secrets) Seal() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sealed = true
}

func longestFirst(a, b string) int {
	if len(a) != len(b) {
		return len(b) - len(a)
	}
	return strings.Compare(a, b)
}

// Redact returns text with every recorded value replaced by Redacted.
func (s *Secrets) Redact(text string) string {
	if s == nil {
		return text
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, v := range s.values {
		text = strings.ReplaceAll(text, v, Redacted)
	}
	return text
}

// RedactErr returns err with every recorded value left out of its text,
// keeping its positions: the errors of building a sensitive resource,
// which quote the literal values they refuse.
func (s *Secrets) RedactErr(err error) error { return mapErr(err, s.Redact) }

// Recording returns templates that record every value they resolve in s,
// for a sensitive resource: what its templates produce is what it hides.
func Recording(t Templates, s *Secrets) Templates { return recording{t, s} }

type recording struct {
	Templates
	secrets *Secrets
}

func (r recording) Value(src string) (any, error) {
	v, err := r.Templates.Value(src)
	if err == nil {
		for _, x := range leaves(v, nil) {
			r.secrets.Add(x)
		}
	}
	return v, err
}

func (r recording) String(src string) (string, error) {
	v, err := r.Templates.String(src)
	if err == nil {
		r.secrets.Add(v)
	}
	return v, err
}
