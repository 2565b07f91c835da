package fileline_test

import (
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest"

	_ "github.com/reactive-ccm/ccm/resources/fileline"
)

// TestValidation: each problem at its position, the value's or the
// resource's when a property is missing.
func TestValidation(t *testing.T) {
	resourcetest.Rejects(t, "file_line", []resourcetest.Rejected{
		{Case: "path required", Name: "l", Props: `line: x`, Want: "test.yaml:1:1: file_line#l: path is required"},
		{Case: "path relative", Name: "l", Props: "path: etc/x\nline: x", Want: `test.yaml:1:7: path: "etc/x" is not the absolute path of a file`},
		{Case: "path root", Name: "l", Props: "path: /\nline: x", Want: `path: "/" is not the absolute path of a file`},
		{Case: "path unclean", Name: "l", Props: "path: /etc//x\nline: x", Want: "test.yaml:1:7: path: must be clean (no ., .., // or trailing /): write /etc/x"},
		{Case: "line or block", Name: "l", Props: "path: /etc/x", Want: "test.yaml:1:1: file_line#l: line or block is required"},
		{Case: "absent without match", Name: "l", Props: "path: /etc/x\nensure: absent", Want: "line or block is required (ensure: absent may give match alone)"},
		{Case: "bad ensure", Name: "l", Props: "path: /etc/x\nline: x\nensure: gone", Want: `test.yaml:3:9: ensure: "gone" is not one of present, absent`},
		{Case: "two lines", Name: "l", Props: "path: /etc/x\nline: \"a\\nb\"", Want: "test.yaml:2:7: line: must be one line; use block for several"},
		{Case: "bad regexp", Name: "l", Props: "path: /etc/x\nline: x\nmatch: \"(\"", Want: "test.yaml:3:8: match: error parsing regexp"},
		{Case: "bad anchor", Name: "l", Props: "path: /etc/x\nline: x\nbefore: \"[\"", Want: "test.yaml:3:9: before: error parsing regexp"},
		{Case: "match misses line", Name: "l", Props: "path: /etc/x\nline: a=1\nmatch: ^b=", Want: `test.yaml:3:8: match: "^b=" does not match line "a=1", so the line would be added again at every run`},
		{Case: "both anchors", Name: "l", Props: "path: /etc/x\nline: x\nafter: a\nbefore: b", Want: "test.yaml:4:9: before: after and before cannot both be set"},
		{Case: "anchor when absent", Name: "l", Props: "path: /etc/x\nline: x\nensure: absent\nafter: a", Want: "after: only valid with ensure: present"},
		{Case: "replace without match", Name: "l", Props: "path: /etc/x\nline: x\nreplace: false", Want: "test.yaml:3:10: replace: false needs match"},
		{Case: "block and line", Name: "l", Props: "path: /etc/x\nline: x\nblock: y", Want: "test.yaml:2:7: line: block and line cannot both be set"},
		{Case: "block and match", Name: "l", Props: "path: /etc/x\nmatch: x\nblock: y", Want: "match: block and match cannot both be set"},
		{Case: "markers on a line", Name: "l", Props: "path: /etc/x\nline: x\nmarker_begin: b", Want: "marker_begin: only valid with block"},
		{Case: "empty marker", Name: "l", Props: "path: /etc/x\nblock: y\nmarker_begin: \"\"", Want: "test.yaml:3:15: marker_begin: must be one non-empty line"},
		{Case: "two-line marker", Name: "l", Props: "path: /etc/x\nblock: y\nmarker_end: \"a\\nb\"", Want: "marker_end: must be one non-empty line"},
		{Case: "same markers", Name: "l", Props: "path: /etc/x\nblock: y\nmarker_begin: m\nmarker_end: m", Want: "test.yaml:4:13: marker_end: must differ from marker_begin"},
		{Case: "marker in block", Name: "l", Props: "path: /etc/x\nblock: \"y\\n# END CCM l\\n\"", Want: "test.yaml:2:8: block: line 2 is a marker line"},
		{Case: "unknown key", Name: "l", Props: "path: /etc/x\nline: x\nlines: y", Want: `unknown property "lines"`},
	})
}

func TestValidAbsentByMatchAlone(t *testing.T) {
	resourcetest.MustBuild(t, "file_line", "l", "path: /etc/x\nensure: absent\nmatch: ^#", t.TempDir())
}
