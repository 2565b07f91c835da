package textfile

import (
	"context"
	"fmt"
	"time"

	"github.com/reactive-ccm/ccm/resources/internal/safepath"
)

// Settle bounds how long ReadSettled waits for other programs to finish
// writing a file.
const Settle = time.Second

// ReadSettled is Read that waits, up to Settle, until no process has the
// file open for writing, so that an edit starts from complete content
// rather than from a file a shell truncated and has not yet written. A
// file still open for writing then is ErrBusy.
func ReadSettled(ctx context.Context, links safepath.Policy, path string) (*File, error) {
	wait := time.Millisecond
	deadline := time.Now().Add(Settle)
	for {
		f, err := Read(links, path)
		if err != nil || !f.Busy {
			return f, err
		}
		if err := f.Close(); err != nil {
			return nil, err
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%s %w", path, ErrBusy)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
		wait = min(2*wait, 100*time.Millisecond)
	}
}
