package template

import "testing"

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
