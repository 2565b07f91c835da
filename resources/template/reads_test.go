package template

import (
	"path/filepath"
	"slices"
	"testing"
)

func TestReadsFiles(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"plain text", false},
		{"{{ Data.app_name }} at {{ now() }}", false},
		{"${ lookup('data.file') }", false},
		{"{{ Data.file }}", false},
		{"${ file('/etc/hostname') }", true},
		{"a {{ readFile('x') }} b", true},
		{"{{ template('x.templ') }}", true},
		{"{{ jet('[[ 1 ]]') }}", true},
		{"{{ map(['a'], file(#)) }}", true},
		{"{{ nosuchfunction( }}", true},
	}
	tmpl := New(testEnv(t.TempDir()))
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := tmpl.ReadsFiles(tt.in); got != tt.want {
				t.Fatalf("ReadsFiles(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

// FilesRead names the files an expression reads by a literal name,
// resolved against the manifest's directory: a watching daemon watches
// them.
func TestFilesRead(t *testing.T) {
	dir := t.TempDir()
	in := func(name string) string { return filepath.Join(dir, name) }
	tests := []struct {
		in   string
		want []string
	}{
		{"plain {{ Data.app_name }}", nil},
		{"{{ readFile('motd.txt') }}", []string{in("motd.txt")}},
		{"${ file('/srv/banner') } and {{ upper(readFile(\"sub/x\")) }}", []string{"/srv/banner", in("sub/x")}},
		{"{{ readFile('a') }}{{ readFile('a') }}", []string{in("a")}},
		{"{{ template('motd.templ') }} {{ template('page.jet') }}", []string{in("motd.templ"), in("page.jet")}},
		{"{{ template('inline {{ 1 }}') }}", nil},
		{"{{ jet('site.jet') }} {{ jet('[[ 1 ]]') }}", []string{in("site.jet")}},
		{"{{ readFile(Data.app_name) }}", nil},
		{"{{ readFile( }}", nil},
	}
	tmpl := New(Env{Dir: dir})
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := tmpl.FilesRead(tt.in); !slices.Equal(got, tt.want) {
				t.Fatalf("FilesRead(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
