package textdiff

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"unicode/utf8"

	"github.com/reactive-ccm/ccm/resources"
)

const (
	// MaxInput is the largest text compared line by line, per side.
	MaxInput = 256 << 10
	// MaxLines bounds the unified diff, headers aside.
	MaxLines = 200
)

// Digest names content by the start of its SHA-256, as reports show it.
func Digest(sum [sha256.Size]byte) string {
	return "sha256:" + hex.EncodeToString(sum[:4])
}

// Content describes content that differs: its digests, and when both
// sides are text within MaxInput (have and want non-nil) the lines added
// and removed and a unified diff. Pass nil for a side too large to read.
func Content(haveSum, wantSum [sha256.Size]byte, have, want []byte) resources.Difference {
	d := resources.Difference{Property: "content", Observed: Digest(haveSum), Desired: Digest(wantSum), Content: true}
	switch {
	case have == nil || want == nil || len(have) > MaxInput || len(want) > MaxInput:
		d.Note = "too large to compare lines"
	case binary(have) || binary(want):
		d.Note = "binary"
	default:
		ops := script(split(string(have)), split(string(want)))
		added, removed := count(ops)
		d.Note = fmt.Sprintf("+%d −%d lines", added, removed)
		d.Diff = unified(ops)
	}
	return d
}

// Texts is Content for two texts in memory.
func Texts(have, want []byte) resources.Difference {
	have, want = append([]byte{}, have...), append([]byte{}, want...)
	return Content(sha256.Sum256(have), sha256.Sum256(want), have, want)
}

func binary(b []byte) bool {
	return bytes.IndexByte(b, 0) >= 0 || !utf8.Valid(b)
}

func count(ops []op) (added, removed int) {
	for _, o := range ops {
		switch o.kind {
		case '+':
			added++
		case '-':
			removed++
		}
	}
	return added, removed
}

// Private reports whether content with any of these permission bits is
// for its owner and group only (no read for others): its diff is left
// out, so --diff never prints on a terminal, in the journal or in an
// event what only they may read.
func Private(perms ...fs.FileMode) bool {
	for _, p := range perms {
		if p&0o004 == 0 {
			return true
		}
	}
	return false
}
