package textdiff_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources/internal/textdiff"
)

func TestTexts(t *testing.T) {
	tests := []struct {
		name, have, want string
		note, diff       string
	}{
		{
			name: "one line changed among others",
			have: "a\nb\nc\nd\ne\nf\ng\nh\n", want: "a\nb\nc\nd\nE\nf\ng\nh\n",
			note: "+1 −1 lines",
			diff: "--- observed\n+++ desired\n@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n",
		},
		{
			name: "lines added to an empty file",
			have: "", want: "x\ny\n",
			note: "+2 −0 lines",
			diff: "--- observed\n+++ desired\n@@ -0,0 +1,2 @@\n+x\n+y\n",
		},
		{
			name: "a missing final newline is shown",
			have: "x", want: "x\n",
			note: "+1 −1 lines",
			diff: "--- observed\n+++ desired\n@@ -1 +1 @@\n-x\n\\ No newline at end of file\n+x\n",
		},
		{
			name: "appended line",
			have: "port = 80\n", want: "port = 80\nextra\n",
			note: "+1 −0 lines",
			diff: "--- observed\n+++ desired\n@@ -1 +1,2 @@\n port = 80\n+extra\n",
		},
		{
			name: "binary content has no diff",
			have: "a\x00b", want: "a\n",
			note: "binary",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := textdiff.Texts([]byte(tt.have), []byte(tt.want))
			if d.Property != "content" || !d.Content || !strings.HasPrefix(d.Observed, "sha256:") {
				t.Fatalf("difference = %+v", d)
			}
			if d.Note != tt.note || d.Diff != tt.diff {
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
