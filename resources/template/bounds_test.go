package template

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/reactive-ccm/ccm/resources/internal/safepath"
)

func TestFilesReadAreBounded(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.jet"), 0o600); err != nil {
		t.Fatal(err)
	}
	big, err := os.Create(filepath.Join(dir, "big.templ"))
	if err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(big.Truncate(MaxFileSize+1), big.Close()); err != nil {
		t.Fatal(err)
	}
	tm := New(testEnv(dir))
	for _, tt := range []struct {
		in   string
		want error
	}{
		{"${ readFile('/dev/zero') }", safepath.ErrNotRegular},
		{"${ file('fifo.jet') }", safepath.ErrNotRegular},
		{"${ jet('fifo.jet') }", safepath.ErrNotRegular},
		{"${ template('big.templ') }", safepath.ErrTooLarge},
		{"${ readFile('.') }", safepath.ErrNotRegular},
	} {
		if _, err := tm.String(tt.in); !errors.Is(err, tt.want) {
			t.Errorf("%s: error %v, want %v", tt.in, err, tt.want)
		}
	}
}
