package fileline

import (
	"slices"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources/internal/textfile"
)

// TestDifferenceAndNoopMessage: what a check reports and what noop says
// for each kind of change, of a line and of a block.
func TestDifferenceAndNoopMessage(t *testing.T) {
	line := &edit{ensure: Present, line: "k=2"}
	block := &edit{ensure: Present, block: []string{"x", "y"}, begin: "# BEGIN", end: "# END"}
	const path = "/etc/f"
	for _, c := range []struct {
		name string
		e    *edit
		c    change
		diff string
		noop string
	}{
		{name: "line added", e: line, c: change{kind: textfile.Added, at: 4}, diff: "line absent → present (to insert at line 4)", noop: "Would have added the line to /etc/f at line 4"},
		{name: "line removed", e: line, c: change{kind: textfile.Removed, at: 2, old: []string{"k=2"}}, diff: "line present → absent (line 2)", noop: "Would have removed line 2 of /etc/f"},
		{name: "lines removed", e: line, c: change{kind: textfile.Removed, at: 2, old: []string{"a", "b", "c"}}, diff: "line present → absent (3 lines from line 2)", noop: "Would have removed 3 lines from line 2 of /etc/f"},
		{name: "line replaced", e: line, c: change{kind: textfile.Replaced, at: 3, old: []string{"k=1"}}, diff: "line k=1 → k=2 (line 3)", noop: "Would have replaced line 3 of /etc/f"},
		{name: "line replaced, one later", e: line, c: change{kind: textfile.Replaced, at: 3, old: []string{"k=1"}, extra: 1}, diff: "line k=1 → k=2 (line 3, and 1 later matching line to remove)"},
		{name: "line replaced, later ones", e: line, c: change{kind: textfile.Replaced, at: 3, old: []string{"k=1"}, extra: 2}, diff: "line k=1 → k=2 (line 3, and 2 later matching lines to remove)"},
		{name: "block added", e: block, c: change{kind: textfile.Added, at: 1}, diff: "block absent → present (to insert at line 1)", noop: "Would have added the block to /etc/f at line 1"},
		{name: "block removed", e: block, c: change{kind: textfile.Removed, at: 5, old: []string{"# BEGIN", "z", "# END"}}, diff: "block present → absent (3 lines from line 5)", noop: "Would have removed 3 lines from line 5 of /etc/f"},
		{name: "block replaced", e: block, c: change{kind: textfile.Replaced, at: 6, old: []string{"x", "z"}}, diff: "block ", noop: "Would have replaced the block at line 6 of /etc/f"},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := c.e.difference(c.c)
			if got := d.String(); !strings.HasPrefix(got, c.diff) || c.diff != "block " && got != c.diff {
				t.Errorf("difference %q, want %q", got, c.diff)
			}
			if want := c.c.kind == textfile.Replaced; d.Content != want {
				t.Errorf("content %v, want %v: the file's lines are content", d.Content, want)
			}
			if c.noop != "" {
				if got := c.e.noopMessage(c.c, path); got != c.noop {
					t.Errorf("noop message %q, want %q", got, c.noop)
				}
			}
		})
	}
	d := block.difference(change{kind: textfile.Replaced, at: 6, old: []string{"x", "z"}})
	if d.Property != "block" || d.Note != "+1 −1 lines" || !strings.Contains(d.Diff, "-z\n+y\n") {
		t.Errorf("block replaced: %+v, want the lines' diff", d)
	}
}

// TestSplitBlock: a YAML literal block's final newline ends its last
// line; CRLF is LF; an empty block has no lines but is a block.
func TestSplitBlock(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"a\nb\n", []string{"a", "b"}},
		{"a\nb", []string{"a", "b"}},
		{"a\r\nb\r\n", []string{"a", "b"}},
		{"a\n\n", []string{"a", ""}},
		{"\n", []string{""}},
		{"", []string{}},
	} {
		if got := splitBlock(c.in); !slices.Equal(got, c.want) || got == nil {
			t.Errorf("splitBlock(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestStatus is what a check reports for each file state and ensure.
func TestStatus(t *testing.T) {
	for _, c := range []struct {
		name    string
		ensure  string
		exists  bool
		c       change
		found   string
		desired bool
		reason  string
	}{
		{name: "missing, absent wanted", ensure: Absent, found: Absent, desired: true},
		{name: "missing, present wanted", ensure: Present, found: Absent, reason: "file absent → present"},
		{name: "there", ensure: Present, exists: true, found: Present, desired: true},
		{name: "to add", ensure: Present, exists: true, c: change{kind: textfile.Added, at: 1}, found: Absent, reason: "line absent → present (to insert at line 1)"},
		{name: "to replace", ensure: Present, exists: true, c: change{kind: textfile.Replaced, at: 1, old: []string{"o"}}, found: Present, reason: "line o → n (line 1)"},
		{name: "gone", ensure: Absent, exists: true, found: Absent, desired: true},
		{name: "to remove", ensure: Absent, exists: true, c: change{kind: textfile.Removed, at: 1, old: []string{"n"}}, found: Present, reason: "line present → absent (line 1)"},
	} {
		f := &fileLine{path: "/etc/f", edit: &edit{ensure: c.ensure, line: "n"}}
		st := f.status(c.exists, c.c)
		if st.Ensure != c.found || st.Desired != c.desired || st.Reason() != c.reason {
			t.Errorf("%s: %+v (%q), want %s, desired %v, %q", c.name, st, st.Reason(), c.found, c.desired, c.reason)
		}
	}
}
