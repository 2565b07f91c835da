package resources

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Templated remembers what each templated property of one resource last
// resolved to, so that its errors can leave those values out: data, facts
// and the environment may hold secrets, and an error about a property is
// shown, logged and sent as JSON. One value per expression is kept, so a
// template that resolves differently each time ({{ now() }}) holds no more
// memory than one that does not. Spec.Decode fills it with what the
// properties resolved to at load, Deferred.Resolve with what they resolve
// to when the resource runs. A nil *Templated remembers nothing and
// redacts nothing. It is safe for concurrent use.
type Templated struct {
	mu   sync.RWMutex
	last map[string][]string
}

// remember records what the property at key (its position and name)
// resolved to, replacing what it resolved to before.
func (t *Templated) remember(key string, vs []string) {
	if t == nil || len(vs) == 0 {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.last == nil {
		t.last = map[string][]string{}
	}
	t.last[key] = vs
}

// Redact returns text with every remembered value replaced by "the
// templated value": wherever it is quoted, and, when it is long enough not
// to match by chance, wherever it appears.
func (t *Templated) Redact(text string) string {
	if t == nil {
		return text
	}
	t.mu.RLock()
	var values []string
	for _, vs := range t.last {
		values = append(values, vs...)
	}
	t.mu.RUnlock()
	return scrubber(values)(text)
}

// scrubber returns what leaves values out of a text: each wherever it is
// quoted, and, when long enough not to match by chance (MinSecret),
// wherever it appears. It sorts values, longest first, so that a value
// inside another is not replaced first.
func scrubber(values []string) func(string) string {
	slices.SortFunc(values, func(a, b string) int { return len(b) - len(a) })
	return func(text string) string {
		for _, v := range values {
			text = strings.ReplaceAll(text, strconv.Quote(v), templatedValue)
			if len(v) >= MinSecret {
				text = strings.ReplaceAll(text, v, templatedValue)
			}
		}
		return text
	}
}

// RedactErr returns err with the remembered values left out of its text,
// keeping its positions, or err itself when it holds none of them.
func (t *Templated) RedactErr(err error) error { return mapErr(err, t.Redact) }

// mapErr returns err with scrub applied to its text, keeping its
// positions, or err itself when scrub changes nothing.
func mapErr(err error, scrub func(string) string) error {
	if err == nil || scrub(err.Error()) == err.Error() {
		return err
	}
	var list ErrorList
	if errors.As(err, &list) {
		out := make(ErrorList, len(list))
		for i, pe := range list {
			out[i] = &PosError{Pos: pe.Pos, Msg: scrub(pe.Msg)}
		}
		return out
	}
	var pe *PosError
	if errors.As(err, &pe) {
		return &PosError{Pos: pe.Pos, Msg: scrub(pe.Msg)}
	}
	return errors.New(scrub(err.Error()))
}

// leaves appends the strings a resolved value shows as: itself, or every
// leaf of a list or map.
func leaves(v any, out []string) []string {
	switch v := v.(type) {
	case []any:
		for _, x := range v {
			out = leaves(x, out)
		}
	case map[string]any:
		for _, x := range v {
			out = leaves(x, out)
		}
	case nil:
	case string:
		out = append(out, v)
	default:
		out = append(out, fmt.Sprint(v))
	}
	return out
}
