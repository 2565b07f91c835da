package template

import (
	"errors"
	"strings"
	"testing"
)

// TestJetRenders: what a Jet render sees and gives, beyond upstream's
// rows: output is not HTML-escaped, the context is the variables map,
// each delimiter pair parses on its own, and ints() runs from..to-1.
func TestJetRenders(t *testing.T) {
	tm := New(testEnv(t.TempDir()))
	tests := []struct {
		name, body, left, right, want string
	}{
		{"not escaped", `[[ "<a href='x'>&</a>" ]]`, "[[", "]]", "<a href='x'>&</a>"},
		{"the context", "[[ .Data.app_name ]]/[[ .facts.os ]]", "[[", "]]", "myapp/linux"},
		{"other delimiters leave [[ alone", "{% data.port %} [[ data.port ]]", "{%", "%}", "8080 [[ data.port ]]"},
		{"the same body, the default delimiters", "{% data.port %} [[ data.port ]]", "[[", "]]", "{% data.port %} 8080"},
		{"ints", "[[ range i, v := ints(3, 6) ]][[ i ]]:[[ v ]] [[ end ]]", "[[", "]]", "0:3 1:4 2:5 "},
		{"lookup", `[[ lookup("data.nested.level2.level3") ]]`, "[[", "]]", "deep value"},
		{"bounded replace and split", `[[ replace("a-b", "-", "+") ]] [[ len(split("a,b,c", ",")) ]]`, "[[", "]]", "a+b 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tm.Jet("t", tt.body, tt.left, tt.right)
			if err != nil || got != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestJetFailures(t *testing.T) {
	tm := New(testEnv(t.TempDir()))
	tm.lim.value = 64
	tests := []struct {
		name, body string
		is         error
		want       string
	}{
		{"ints backwards", "[[ range ints(3, 3) ]]x[[ end ]]", nil, "jet t: ints: from must be smaller than to"},
		{"ints of text, not shown", `[[ range ints(data.app_name, 3) ]]x[[ end ]]`, nil, "jet t: ints: takes two integers, from and to"},
		{"a function's error keeps its sentinel", `[[ lookup("data.missing") ]]`, ErrMissingKey, "jet t: lookup: no value for key; give a default: lookup(KEY, DEFAULT)"},
		{"output beyond the bound", "[[ range ints(0, 100) ]]x[[ end ]]", ErrBudget, "jet t: template budget exceeded: a value of more than 64 bytes"},
		{"a syntax error names the template", "[[ if ]]", nil, "jet: template: /t:1: "},
		{"a nil argument reaches the function as nil", "[[ lookup(nil) ]]", ErrArgs, "jet t: bad arguments: lookup: the key must be a string, got <nil>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tm.Jet("t", tt.body, "[[", "]]")
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) || strings.Contains(err.Error(), "myapp") {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Fatalf("error %v is not %v", err, tt.is)
			}
		})
	}
}
