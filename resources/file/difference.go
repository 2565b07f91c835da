package file

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/textdiff"
)

// contentDifference describes how the file in v differs from the wanted
// content: digests, and for text within textdiff's bounds the lines added
// and removed and a unified diff, unless the file is, was when read, or
// is to be private (textdiff.Private). It runs only on drift, with the
// view the check opened; a text within those bounds is read once, for its
// digest and its lines.
func (f *file) contentDifference(ctx context.Context, v *view) (resources.Difference, error) {
	want, err := f.content.digest(ctx, f.links)
	if err != nil {
		return resources.Difference{}, err
	}
	var haveText, wantText []byte
	private := textdiff.Private(fs.FileMode(v.o.mode), fs.FileMode(f.mode))
	if v.o.size <= textdiff.MaxInput && want.size <= textdiff.MaxInput {
		target, err := v.openTarget()
		if haveText, err = readText(target, err, v.o.size); err != nil {
			return resources.Difference{}, err
		}
		// Made private between the stat and the read: what was read may be
		// what only its owner was meant to see.
		private = private || textdiff.Private(target.perm)
		r, err := f.content.open(f.links)
		if wantText, err = readText(r, err, want.size); err != nil {
			return resources.Difference{}, err
		}
	}
	if haveText == nil {
		// Too long to compare, or grown so since the stat: digested alone.
		have, err := v.hashTarget(ctx)
		return textdiff.Content(have.sum, want.sum, nil, nil), err
	}
	d := textdiff.Content(sha256.Sum256(haveText), want.sum, haveText, wantText)
	if private {
		d.Diff = ""
	}
	return d, nil
}

// readText reads a text of about size bytes, at most textdiff.MaxInput; a
// longer text (one that grew since it was hashed) is returned as nil: not
// compared. A short read ends it: the end of a regular file or of a text
// in memory.
func readText[R io.ReadCloser](r R, err error, size int64) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	defer r.Close()
	b := make([]byte, 0, min(size, textdiff.MaxInput)+1)
	for len(b) <= textdiff.MaxInput {
		if len(b) == cap(b) {
			b = slices.Grow(b, len(b))
		}
		want := min(cap(b), textdiff.MaxInput+1) - len(b)
		n, err := r.Read(b[len(b) : len(b)+want])
		b = b[:len(b)+n]
		if errors.Is(err, io.EOF) || err == nil && n < want {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading for comparison: %w", err)
		}
	}
	if len(b) > textdiff.MaxInput {
		return nil, nil
	}
	return b, nil
}
