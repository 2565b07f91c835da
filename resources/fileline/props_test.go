package fileline_test

import (
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest"

	_ "github.com/reactive-ccm/ccm/resources/fileline"
)

func TestValidation(t *testing.T) {
	resourcetest.Rejects(t, "file_line", []resourcetest.Rejected{
		{Case: "path required", Name: "l", Props: `line: x`, Want: "path is required"},
		{Case: "path relative", Name: "l", Props: "path: etc/x\nline: x", Want: "not the absolute path"},
		{Case: "path unclean", Name: "l", Props: "path: /etc//x\nline: x", Want: "must be clean"},
		{Case: "line or block", Name: "l", Props: "path: /etc/x", Want: "line or block is required"},
		{Case: "bad ensure", Name: "l", Props: "path: /etc/x\nline: x\nensure: gone", Want: `"gone" is not one of present, absent`},
		{Case: "two lines", Name: "l", Props: "path: /etc/x\nline: \"a\\nb\"", Want: "must be one line"},
		{Case: "bad regexp", Name: "l", Props: "path: /etc/x\nline: x\nmatch: \"(\"", Want: "match: error parsing regexp"},
		{Case: "match misses line", Name: "l", Props: "path: /etc/x\nline: a=1\nmatch: ^b=", Want: "does not match line"},
		{Case: "both anchors", Name: "l", Props: "path: /etc/x\nline: x\nafter: a\nbefore: b", Want: "after and before cannot both be set"},
		{Case: "anchor when absent", Name: "l", Props: "path: /etc/x\nline: x\nensure: absent\nafter: a", Want: "after: only valid with ensure: present"},
		{Case: "replace without match", Name: "l", Props: "path: /etc/x\nline: x\nreplace: false", Want: "replace: false needs match"},
		{Case: "block and line", Name: "l", Props: "path: /etc/x\nline: x\nblock: y", Want: "line: block and line cannot both be set"},
		{Case: "markers on a line", Name: "l", Props: "path: /etc/x\nline: x\nmarker_begin: b", Want: "marker_begin: only valid with block"},
		{Case: "same markers", Name: "l", Props: "path: /etc/x\nblock: y\nmarker_begin: m\nmarker_end: m", Want: "must differ from marker_begin"},
		{Case: "marker in block", Name: "l", Props: "path: /etc/x\nblock: \"y\\n# END CCM l\\n\"", Want: "line 2 is a marker line"},
		{Case: "unknown key", Name: "l", Props: "path: /etc/x\nline: x\nlines: y", Want: `unknown property "lines"`},
	})
}

func TestValidAbsentByMatchAlone(t *testing.T) {
	resourcetest.MustBuild(t, "file_line", "l", "path: /etc/x\nensure: absent\nmatch: ^#", t.TempDir())
}
