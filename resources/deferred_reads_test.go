package resources_test

import (
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
)

// fileReading is a template environment in which readFile(...) reads a
// file, as the real one's readFile, file, template and jet do.
type fileReading struct{ resources.Literal }

func (fileReading) HasExpr(s string) bool    { return strings.Contains(s, "{{") }
func (fileReading) ReadsFiles(s string) bool { return strings.Contains(s, "readFile(") }

// TestDeferredReadsFiles: a deferred value may read a file an earlier
// resource writes only when a template in it reads one; a file whose
// content reads one is then not run beside its neighbours.
func TestDeferredReadsFiles(t *testing.T) {
	pos := resources.Pos{File: "m.yaml", Line: 1}
	for _, tc := range []struct {
		tmpl  resources.Templates
		raw   string
		reads bool
	}{
		{fileReading{}, "{{ readFile('/etc/motd') }}", true},
		{fileReading{}, "{{ hostname }}", false},
		{fileReading{}, "readFile('/etc/motd') without braces", false},
		{resources.Literal{}, "{{ readFile('/etc/motd') }}", false},
	} {
		d := resources.NewDeferred(tc.tmpl, "content", tc.raw, pos)
		if d.ReadsFiles() != tc.reads || d.Label() != "content" {
			t.Errorf("%T %q: reads files %t, label %q; want %t", tc.tmpl, tc.raw, d.ReadsFiles(), d.Label(), tc.reads)
		}
	}
	var unset resources.Deferred
	if unset.ReadsFiles() || unset.IsSet() || unset.Label() != "" {
		t.Error("an unset property reads files or is set")
	}
}

// TestLiteralTemplates: a manifest without template support takes every
// string as written.
func TestLiteralTemplates(t *testing.T) {
	var l resources.Literal
	v, err := l.Value("{{ x }}")
	s, serr := l.String("${ y }")
	if v != "{{ x }}" || err != nil || s != "${ y }" || serr != nil || l.HasExpr("{{ x }}") || l.ReadsFiles("{{ readFile('a') }}") ||
		l.Fingerprint() != "" || l.Vars() == nil || len(l.Vars()) != 0 {
		t.Fatalf("Literal resolved something: %v %v %q %v", v, err, s, serr)
	}
}
