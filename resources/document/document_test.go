package document_test

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/reactive-ccm/ccm/internal/ownership"
	"github.com/reactive-ccm/ccm/resources/document"
)

// TestRead: a manifest is read when it is a regular file of at most
// MaxSize (64 MiB) bytes that passes the ownership rule; anything else is refused
// with the error that says why.
func TestRead(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("the ownership rule trusts root's files: run as root")
	}
	dir := t.TempDir()
	write := func(name string, size int64, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("- file: []\n"), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		if size > 0 {
			if err := os.Truncate(p, size); err != nil {
				t.Fatal(err)
			}
		}
		return p
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		path string
		err  error
	}{
		{name: "manifest", path: write("m.yaml", 0, 0o644)},
		{name: "at the bound", path: write("max.yaml", 64<<20, 0o644)},
		{name: "too large", path: write("big.yaml", 64<<20+1, 0o644), err: ownership.ErrTooLarge},
		{name: "writable by others", path: write("w.yaml", 0, 0o666), err: ownership.ErrUnsafe},
		{name: "fifo", path: fifo, err: ownership.ErrNotRegular},
		{name: "directory", path: dir, err: ownership.ErrNotRegular},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, err := document.Read(c.path)
			if !errors.Is(err, c.err) {
				t.Fatalf("Read: %v, want %v", err, c.err)
			}
			if c.err == nil && (len(b) < 11 || string(b[:11]) != "- file: []\n") {
				t.Errorf("read %q", b)
			}
		})
	}
}
