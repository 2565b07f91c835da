package textdiff_test

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources/internal/textdiff"
)

// numbered is lines "1\n" to "n\n" with the lines of change replaced.
func numbered(n int, change map[int]string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if c, ok := change[i]; ok {
			b.WriteString(c)
			continue
		}
		fmt.Fprintf(&b, "%d\n", i)
	}
	return b.String()
}

func TestContentLeavesOutWhatItCannotShow(t *testing.T) {
	sum := sha256.Sum256([]byte("x"))
	tests := []struct {
		name       string
		have, want []byte
		note       string
	}{
		{"the observed side too large to read", nil, []byte("x\n"), "too large to compare lines"},
		{"the desired side too large to read", []byte("x\n"), nil, "too large to compare lines"},
		{"the desired side beyond the bound", []byte("x\n"), make([]byte, textdiff.MaxInput+1), "too large to compare lines"},
		{"not UTF-8", []byte("caf\xe9\n"), []byte("café\n"), "binary"},
		{"a NUL on the desired side", []byte("a\n"), []byte("a\n\x00"), "binary"},
		{"both sides at the bound are compared", []byte(strings.Repeat("x", textdiff.MaxInput)), []byte(strings.Repeat("y", textdiff.MaxInput)), "+1 −1 lines"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := textdiff.Content(sum, sum, tt.have, tt.want)
			if d.Note != tt.note || (d.Diff != "") != strings.HasPrefix(tt.note, "+") {
				t.Fatalf("note %q diff %q, want note %q", d.Note, d.Diff, tt.note)
			}
			if d.Observed != "sha256:2d711642" || d.Desired != d.Observed || !d.Content {
				t.Fatalf("difference %+v, want the digests of x", d)
			}
		})
	}
}

func TestDiffCutExactlyAtTheBound(t *testing.T) {
	for _, n := range []int{textdiff.MaxLines, textdiff.MaxLines + 1} {
		d := textdiff.Texts(nil, []byte(strings.Repeat("l\n", n)))
		cut := strings.Contains(d.Diff, fmt.Sprintf("… diff cut after %d lines\n", textdiff.MaxLines))
		if lines := strings.Count(d.Diff, "\n+l"); lines != textdiff.MaxLines || cut != (n > textdiff.MaxLines) {
			t.Errorf("%d lines added: %d shown, cut %v", n, lines, cut)
		}
	}
}

// TestDiffCutCountsEveryHunk: MaxLines bounds the whole diff, not each
// hunk; hunk headers are not counted.
func TestDiffCutCountsEveryHunk(t *testing.T) {
	change := map[int]string{}
	for i := 5; i <= 1000; i += 10 {
		change[i] = "changed\n"
	}
	d := textdiff.Texts([]byte(numbered(1000, nil)), []byte(numbered(1000, change)))
	body, hunks := 0, 0
	for _, l := range strings.Split(strings.TrimSuffix(d.Diff, "\n"), "\n")[2:] {
		switch {
		case strings.HasPrefix(l, "@@ "):
			hunks++
		case strings.HasPrefix(l, "… diff cut after"):
		default:
			body++
		}
	}
	if body != textdiff.MaxLines || hunks < 2 || !strings.HasSuffix(d.Diff, "… diff cut after 200 lines\n") {
		t.Fatalf("%d lines in %d hunks, want %d", body, hunks, textdiff.MaxLines)
	}
}

func TestPrivate(t *testing.T) {
	tests := []struct {
		perms []fs.FileMode
		want  bool
	}{
		{[]fs.FileMode{0o644}, false},
		{[]fs.FileMode{0o640}, true},
		{[]fs.FileMode{0o604, 0o600}, true},
		{[]fs.FileMode{0o004, 0o444}, false},
		{nil, false},
	}
	for _, tt := range tests {
		if got := textdiff.Private(tt.perms...); got != tt.want {
			t.Errorf("Private(%o) = %v, want %v", tt.perms, got, tt.want)
		}
	}
}

// TestEditSearchBound: up to 500 edits the script is the shortest one;
// beyond, the changed middle (from the first change to the last) is
// replaced whole, kept lines within it included.
func TestEditSearchBound(t *testing.T) {
	tests := []struct {
		changes int
		note    string
	}{
		{250, "+250 −250 lines"},
		{251, "+501 −501 lines"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.changes, " changed lines"), func(t *testing.T) {
			change := map[int]string{}
			for i := range tt.changes {
				change[2*i+2] = fmt.Sprintf("changed %d\n", i)
			}
			n := 2*tt.changes + 1
			d := textdiff.Texts([]byte(numbered(n, nil)), []byte(numbered(n, change)))
			if d.Note != tt.note {
				t.Fatalf("note %q, want %q", d.Note, tt.note)
			}
			if !strings.HasPrefix(strings.TrimPrefix(d.Diff, "--- observed\n+++ desired\n"), "@@ -1,") {
				t.Fatalf("diff starts %q", d.Diff[:60])
			}
		})
	}
}
