package propflag

import (
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/reactive-ccm/ccm/internal/ownership"
	"github.com/reactive-ccm/ccm/resources/document"
)

// readContentFile reads the file an operator named for a property on the
// command line: a regular file of at most document.MaxSize bytes, so that
// a FIFO or /dev/zero is an error at once, not a hang or exhausted memory.
func readContentFile(path string) ([]byte, error) {
	// O_NONBLOCK: opening a FIFO must not wait for a writer.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", path, ownership.ErrNotRegular)
	}
	b, err := io.ReadAll(io.LimitReader(f, document.MaxSize+1))
	if err == nil && len(b) > document.MaxSize {
		err = fmt.Errorf("%s: %w (at most %d bytes)", path, ownership.ErrTooLarge, document.MaxSize)
	}
	return b, err
}
