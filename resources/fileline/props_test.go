package fileline_test

import (
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest"

	_ "github.com/reactive-ccm/ccm/resources/fileline"
)

func TestValidation(t *testing.T) {
	tests := []struct {
		name, props, want string
	}{
		{"path required", `line: x`, "path is required"},
		{"path relative", "path: etc/x\nline: x", "not the absolute path"},
		{"path unclean", "path: /etc//x\nline: x", "must be clean"},
		{"line or block", "path: /etc/x", "line or block is required"},
		{"bad ensure", "path: /etc/x\nline: x\nensure: gone", `"gone" is not one of present, absent`},
		{"two lines", "path: /etc/x\nline: \"a\\nb\"", "must be one line"},
		{"bad regexp", "path: /etc/x\nline: x\nmatch: \"(\"", "match: error parsing regexp"},
		{"match misses line", "path: /etc/x\nline: a=1\nmatch: ^b=", "does not match line"},
		{"both anchors", "path: /etc/x\nline: x\nafter: a\nbefore: b", "after and before cannot both be set"},
		{"anchor when absent", "path: /etc/x\nline: x\nensure: absent\nafter: a", "after: only valid with ensure: present"},
		{"replace without match", "path: /etc/x\nline: x\nreplace: false", "replace: false needs match"},
		{"block and line", "path: /etc/x\nline: x\nblock: y", "line: block and line cannot both be set"},
		{"markers on a line", "path: /etc/x\nline: x\nmarker_begin: b", "marker_begin: only valid with block"},
		{"same markers", "path: /etc/x\nblock: y\nmarker_begin: m\nmarker_end: m", "must differ from marker_begin"},
		{"marker in block", "path: /etc/x\nblock: \"y\\n# END CCM l\\n\"", "line 2 is a marker line"},
		{"unknown key", "path: /etc/x\nline: x\nlines: y", `unknown property "lines"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := resourcetest.BuildError(t, "file_line", "l", tt.props, t.TempDir()); !strings.Contains(got, tt.want) {
				t.Errorf("error %q, want it to contain %q", got, tt.want)
			}
		})
	}
}

func TestValidAbsentByMatchAlone(t *testing.T) {
	resourcetest.MustBuild(t, "file_line", "l", "path: /etc/x\nensure: absent\nmatch: ^#", t.TempDir())
}
