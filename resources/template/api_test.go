package template

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestCompileInTheDataShape: hiera data compiles against lookup() and
// the variables only; an unknown variable still waits for the run.
func TestCompileInTheDataShape(t *testing.T) {
	tm := NewData(Env{})
	tests := []struct {
		src  string
		want string
	}{
		{"{{ lookup('facts.os') }}", ""},
		{"{{ later_variable }}", ""},
		{"{{ upper(Facts.os) }}", ""},
		{"{{ readFile('x') }}", "template {{ readFile('x') }}: unknown name readFile"},
		{"{{ template('x') }}", "template {{ template('x') }}: unknown name template"},
		{"${ kvGet('b', 'k') }", "template ${ kvGet('b', 'k') }: unknown name kvGet; to pass a literal ${ on (a shell variable, say), write $${"},
		{"{{ }}", "template {{  }}: empty expression"},
	}
	for _, tt := range tests {
		if got := errText(tm.Compile(tt.src)); got != tt.want {
			t.Errorf("Compile(%q) = %q, want %q", tt.src, got, tt.want)
		}
	}
}

// TestReadFileResolvesAgainstTheManifest: a relative path is read from
// the manifest's directory; without one it is refused, not read from
// wherever the process runs.
func TestReadFileResolvesAgainstTheManifest(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "motd"), []byte("hi"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		dir, path, want string
	}{
		{dir, "motd", "hi"},
		{"/nowhere", filepath.Join(dir, "motd"), "hi"},
		{"", filepath.Join(dir, "motd"), "hi"},
	} {
		if got, err := New(Env{Dir: tt.dir}).ReadFile(tt.path); err != nil || got != tt.want {
			t.Errorf("ReadFile(%q) in %q = %q, %v", tt.path, tt.dir, got, err)
		}
	}
	if _, err := New(Env{}).ReadFile("motd"); err == nil || err.Error() != "open motd: path is not absolute" {
		t.Errorf("a relative path without a directory: %v", err)
	}
}

// TestErrorsMatchThroughNesting: a sentinel raised in a nested template
// still matches, with its own text (only expr's errors are marked
// nested); a bare expression's errors quote it.
func TestErrorsMatchThroughNesting(t *testing.T) {
	tm := New(testEnv(t.TempDir()))
	_, err := tm.String(`{{ template("{{ lookup('data.missing') }}") }}`)
	if !errors.Is(err, ErrMissingKey) {
		t.Fatalf("error %v is not ErrMissingKey", err)
	}
	want := `template {{ template("{{ lookup('data.missing') }}") }}: lookup: no value for key; give a default: lookup(KEY, DEFAULT)`
	if err.Error() != want {
		t.Fatalf("error %q\nwant      %q", err, want)
	}
	for src, want := range map[string]string{
		"   ":               `expression "": empty expression`,
		"Facts.os ==":       `expression "Facts.os ==": unexpected token EOF`,
		"lookup('x', 1, 2)": `expression "lookup('x', 1, 2)": bad arguments: lookup(key[, default]) takes 1 or 2 arguments, got 3`,
	} {
		if _, err := tm.Eval(src); errText(err) != want {
			t.Errorf("Eval(%q) = %v\nwant %q", src, err, want)
		}
	}
}
