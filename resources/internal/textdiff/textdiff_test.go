package textdiff_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources/internal/textdiff"
)

// TestTexts pins the difference and the diff's shape: the shortest edit
// script, hunk ranges (a side's empty range starts before its line) and
// where changes share a hunk (at most twice the three lines of context
// apart). Every diff opens with the two sides' names, left out below.
func TestTexts(t *testing.T) {
	tests := []struct {
		name, have, want string
		note, diff       string
	}{
		{
			name: "one line changed among others",
			have: "a\nb\nc\nd\ne\nf\ng\nh\n", want: "a\nb\nc\nd\nE\nf\ng\nh\n",
			note: "+1 −1 lines",
			diff: "@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n",
		},
		{
			name: "lines added to an empty file",
			have: "", want: "x\ny\n",
			note: "+2 −0 lines",
			diff: "@@ -0,0 +1,2 @@\n+x\n+y\n",
		},
		{
			name: "a missing final newline is shown",
			have: "x", want: "x\n",
			note: "+1 −1 lines",
			diff: "@@ -1 +1 @@\n-x\n\\ No newline at end of file\n+x\n",
		},
		{
			name: "appended line",
			have: "port = 80\n", want: "port = 80\nextra\n",
			note: "+1 −0 lines",
			diff: "@@ -1 +1,2 @@\n port = 80\n+extra\n",
		},
		{
			name: "binary content has no diff",
			have: "a\x00b", want: "a\n",
			note: "binary",
		},
		{
			name: "everything removed",
			have: "a\nb\n", want: "",
			note: "+0 −2 lines",
			diff: "@@ -1,2 +0,0 @@\n-a\n-b\n",
		},
		{
			name: "a line inserted in the middle",
			have: "a\nb\nc\n", want: "a\nb\nnew\nc\n",
			note: "+1 −0 lines",
			diff: "@@ -1,3 +1,4 @@\n a\n b\n+new\n c\n",
		},
		{
			name: "a line removed at the start",
			have: "a\nb\nc\nd\ne\n", want: "b\nc\nd\ne\n",
			note: "+0 −1 lines",
			diff: "@@ -1,4 +1,3 @@\n-a\n b\n c\n d\n",
		},
		{
			name: "a line moved to the start is one removal and one addition",
			have: "a\nb\nc\n", want: "c\na\nb\n",
			note: "+1 −1 lines",
			diff: "@@ -1,3 +1,3 @@\n+c\n a\n b\n-c\n",
		},
		{
			name: "the middle edited between kept lines",
			have: "k\nx\ny\nz\nk\n", want: "k\ny\nq\nk\n",
			note: "+1 −2 lines",
			diff: "@@ -1,5 +1,4 @@\n k\n-x\n y\n-z\n+q\n k\n",
		},
		{
			name: "no final newline on either side",
			have: "a\nb", want: "a\nc",
			note: "+1 −1 lines",
			diff: "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n",
		},
		{
			name: "carriage returns are part of the line",
			have: "a\r\nb\r\n", want: "a\r\nb\n",
			note: "+1 −1 lines",
			diff: "@@ -1,2 +1,2 @@\n a\r\n-b\r\n+b\n",
		},
		{
			name: "changes six lines apart share a hunk",
			have: numbered(20, nil), want: numbered(20, map[int]string{5: "five\n", 12: "twelve\n"}),
			note: "+2 −2 lines",
			diff: "@@ -2,14 +2,14 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n 9\n 10\n 11\n-12\n+twelve\n 13\n 14\n 15\n",
		},
		{
			name: "changes seven lines apart do not",
			have: numbered(20, nil), want: numbered(20, map[int]string{5: "five\n", 13: "thirteen\n"}),
			note: "+2 −2 lines",
			diff: "@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n@@ -10,7 +10,7 @@\n 10\n 11\n 12\n-13\n+thirteen\n 14\n 15\n 16\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := textdiff.Texts([]byte(tt.have), []byte(tt.want))
			if d.Property != "content" || !d.Content || !strings.HasPrefix(d.Observed, "sha256:") {
				t.Fatalf("difference = %+v", d)
			}
			diff, named := strings.CutPrefix(d.Diff, "--- observed\n+++ desired\n")
			if d.Note != tt.note || diff != tt.diff || named != (tt.diff != "") {
				t.Fatalf("note %q, diff\n%s\nwant note %q, diff\n%s", d.Note, d.Diff, tt.note, tt.diff)
			}
		})
	}
}

func TestDistantChangesMakeSeparateHunks(t *testing.T) {
	var have, want strings.Builder
	for i := range 30 {
		fmt.Fprintf(&have, "line %d\n", i)
		if i == 2 || i == 25 {
			fmt.Fprintf(&want, "changed %d\n", i)
			continue
		}
		fmt.Fprintf(&want, "line %d\n", i)
	}
	d := textdiff.Texts([]byte(have.String()), []byte(want.String()))
	if n := strings.Count(d.Diff, "@@ -"); n != 2 {
		t.Fatalf("%d hunks, want 2:\n%s", n, d.Diff)
	}
	if d.Note != "+2 −2 lines" {
		t.Fatalf("note %q", d.Note)
	}
}

func TestBounds(t *testing.T) {
	t.Run("a long diff is cut", func(t *testing.T) {
		want := strings.Repeat("new line\n", 1000)
		d := textdiff.Texts(nil, []byte(want))
		if lines := strings.Count(d.Diff, "\n"); lines > textdiff.MaxLines+4 {
			t.Fatalf("%d lines of diff", lines)
		}
		if !strings.Contains(d.Diff, "diff cut after") || d.Note != "+1000 −0 lines" {
			t.Fatalf("note %q, diff ends %q", d.Note, d.Diff[len(d.Diff)-40:])
		}
	})
	t.Run("many scattered edits fall back to a whole replacement", func(t *testing.T) {
		var have, want strings.Builder
		for i := range 2000 {
			fmt.Fprintf(&have, "a%d\n", i)
			fmt.Fprintf(&want, "b%d\n", i)
		}
		d := textdiff.Texts([]byte(have.String()), []byte(want.String()))
		if d.Note != "+2000 −2000 lines" {
			t.Fatalf("note %q", d.Note)
		}
	})
	t.Run("input beyond the bound is not compared", func(t *testing.T) {
		big := []byte(strings.Repeat("x", textdiff.MaxInput+1))
		if d := textdiff.Texts(big, []byte("x")); d.Note != "too large to compare lines" || d.Diff != "" {
			t.Fatalf("difference %+v", d)
		}
	})
}
