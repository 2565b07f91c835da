package file

import (
	"context"
	"fmt"
	"io"

	"golang.org/x/sys/unix"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/textdiff"
)

// contentDifference describes how the file in v differs from the wanted
// content: digests, and for text within textdiff's bounds the lines added
// and removed and a unified diff. It runs only on drift, with the view
// the check opened.
func (f *file) contentDifference(ctx context.Context, v *view) (resources.Difference, error) {
	want, err := f.content.digest(ctx, f.links)
	if err != nil {
		return resources.Difference{}, err
	}
	have, err := hashTarget(ctx, v.dir, v.base, v.o.size)
	if err != nil {
		return resources.Difference{}, err
	}
	var haveText, wantText []byte
	if have.size <= textdiff.MaxInput && want.size <= textdiff.MaxInput {
		target, err := v.dir.Open(v.base, unix.O_RDONLY|unix.O_NONBLOCK)
		if haveText, err = readText(target, err); err != nil {
			return resources.Difference{}, err
		}
		if wantText, err = readText(f.content.open(f.links)); err != nil {
			return resources.Difference{}, err
		}
	}
	return textdiff.Content(have.sum, want.sum, haveText, wantText), nil
}

// readText reads at most textdiff.MaxInput bytes; a longer text (one
// that grew since it was hashed) is returned as nil: not compared.
func readText[R io.ReadCloser](r R, err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	defer r.Close()
	b, err := io.ReadAll(io.LimitReader(r, textdiff.MaxInput+1))
	if err != nil {
		return nil, fmt.Errorf("reading for comparison: %w", err)
	}
	if len(b) > textdiff.MaxInput {
		return nil, nil
	}
	if b == nil {
		b = []byte{}
	}
	return b, nil
}
