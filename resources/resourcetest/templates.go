package resourcetest

import (
	"fmt"
	"regexp"

	"github.com/reactive-ccm/ccm/resources"
)

// Vars is a template environment for tests. "{{ name }}" resolves to the
// entry name, printed with fmt.Sprint; a name without an entry is an
// error. Vars returns the map itself, as the facts and data a template
// engine such as scaffold's sees.
type Vars map[string]any

var _ resources.Templates = Vars{}

var expr = regexp.MustCompile(`\{\{ *(\w+) *\}\}`)

// String resolves every expression in s.
func (v Vars) String(s string) (string, error) {
	var missing string
	out := expr.ReplaceAllStringFunc(s, func(m string) string {
		name := expr.FindStringSubmatch(m)[1]
		val, ok := v[name]
		if !ok && missing == "" {
			missing = name
		}
		return fmt.Sprint(val)
	})
	if missing != "" {
		return "", fmt.Errorf("unknown name %q", missing)
	}
	return out, nil
}

// Value keeps the entry's type when s is exactly one expression, as the
// real templates do.
func (v Vars) Value(s string) (any, error) {
	if m := expr.FindStringSubmatch(s); m != nil && m[0] == s {
		if val, ok := v[m[1]]; ok {
			return val, nil
		}
	}
	return v.String(s)
}

// HasExpr reports whether s holds a "{{ name }}".
func (v Vars) HasExpr(s string) bool { return expr.MatchString(s) }

// ReadsFiles is false: Vars offers no functions.
func (v Vars) ReadsFiles(string) bool { return false }

// FilesRead is empty: Vars offers no functions.
func (v Vars) FilesRead(string) []string { return nil }

// Vars returns the entries.
func (v Vars) Vars() map[string]any { return v }

// Fingerprint changes with the entries.
func (v Vars) Fingerprint() string { return fmt.Sprint(map[string]any(v)) }
