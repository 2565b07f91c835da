package resources_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
)

// fileReading is a template environment in which readFile(...) reads a
// file, as the real one's readFile, file, template and jet do.
type fileReading struct{ resources.Literal }

func (fileReading) HasExpr(s string) bool    { return strings.Contains(s, "{{") }
func (fileReading) ReadsFiles(s string) bool { return strings.Contains(s, "readFile(") }

// FilesRead names the file of a readFile('NAME') in s.
func (fileReading) FilesRead(s string) []string {
	_, rest, ok := strings.Cut(s, "readFile('")
	name, _, closed := strings.Cut(rest, "')")
	if !ok || !closed {
		return nil
	}
	return []string{name}
}

// TestDeferredReadsFiles: a deferred value may read a file an earlier
// resource writes only when a template in it reads one; a file whose
// content reads one is then not run beside its neighbours.
func TestDeferredReadsFiles(t *testing.T) {
	pos := resources.Pos{File: "m.yaml", Line: 1}
	for _, tc := range []struct {
		tmpl  resources.Templates
		raw   string
		reads bool
		files string
	}{
		{fileReading{}, "{{ readFile('/etc/motd') }}", true, "[/etc/motd]"},
		{fileReading{}, "{{ hostname }}", false, "[]"},
		{fileReading{}, "readFile('/etc/motd') without braces", false, "[]"},
		{resources.Literal{}, "{{ readFile('/etc/motd') }}", false, "[]"},
	} {
		d := resources.NewDeferred(tc.tmpl, "content", tc.raw, pos)
		if d.ReadsFiles() != tc.reads || d.Label() != "content" || fmt.Sprint(d.FilesRead()) != tc.files {
			t.Errorf("%T %q: reads files %t %v, label %q; want %t %s", tc.tmpl, tc.raw, d.ReadsFiles(), d.FilesRead(), d.Label(), tc.reads, tc.files)
		}
	}
	var unset resources.Deferred
	if unset.ReadsFiles() || unset.IsSet() || unset.Label() != "" || unset.FilesRead() != nil {
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
