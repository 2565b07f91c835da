package textfile_test

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	"github.com/reactive-ccm/ccm/resources/internal/textfile"
)

func TestReplaceKeepsAttributes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("a\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(path, 7, 8); err != nil {
		t.Fatal(err)
	}
	f, err := textfile.Read(safepath.Policy{}, path)
	if err != nil || !f.Exists || string(f.Content) != "a\n" || f.Busy {
		t.Fatalf("read %+v, %v", f, err)
	}
	defer f.Close()
	if err := f.Replace(t.Context(), []byte("b\n"), nil); err != nil {
		t.Fatal(err)
	}
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil || st.Uid != 7 || st.Gid != 8 || st.Mode&0o7777 != 0o600 {
		t.Errorf("after replace %d:%d %04o (%v), want 7:8 0600", st.Uid, st.Gid, st.Mode&0o7777, err)
	}
}

func TestReplaceCreatesOnlyWithAttrs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	f, err := textfile.Read(safepath.Policy{}, path)
	if err != nil || f.Exists {
		t.Fatalf("read of a missing file: %+v, %v", f, err)
	}
	defer f.Close()
	if err := f.Replace(t.Context(), []byte("x"), nil); !errors.Is(err, textfile.ErrMissing) {
		t.Fatalf("replace without attrs: %v, want ErrMissing", err)
	}
	if err := f.Replace(t.Context(), []byte("x"), &textfile.Attrs{UID: 0, GID: 0, Mode: 0o640}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o640 {
		t.Fatalf("created %v, %v; want mode 0640", fi, err)
	}
}

// TestBusyWhileOpenForWriting: a file some process holds open for writing
// is busy, and ReadSettled reads it once it is closed.
func TestBusyWhileOpenForWriting(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	w, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := textfile.Read(safepath.Policy{}, path)
	if err != nil || !f.Busy {
		t.Fatalf("read while open for writing: busy %v, %v; want busy", f != nil && f.Busy, err)
	}
	f.Close()
	done := make(chan *textfile.File)
	go func() {
		f, err := textfile.ReadSettled(t.Context(), safepath.Policy{}, path)
		if err != nil {
			t.Error(err)
		}
		done <- f
	}()
	if _, err := w.WriteString("whole\n"); err != nil {
		t.Fatal(err)
	}
	w.Close()
	f = <-done
	if f == nil || string(f.Content) != "whole\n" || f.Busy {
		t.Fatalf("settled read %+v, want the whole content", f)
	}
	f.Close()
}

func TestLines(t *testing.T) {
	for in, n := range map[string]int{"": 0, "a": 1, "a\n": 1, "a\n\n": 2, "a\nb": 2} {
		lines := textfile.Lines([]byte(in))
		if len(lines) != n {
			t.Errorf("Lines(%q) = %q, want %d lines", in, lines, n)
		}
	}
	if got := string(textfile.Join([]string{"a", "", "b"})); got != "a\n\nb\n" {
		t.Errorf("Join = %q", got)
	}
}
