package resourcetest

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// WriteFile writes content to path with exactly mode, whatever the umask,
// failing the test on error.
func WriteFile(t testing.TB, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

// WriteTree writes files (a path relative to dir → its content) under
// dir, making the directories they need, failing the test on error.
func WriteTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// FIFO makes a named pipe at path, for tests of what must not block on
// one, failing the test on error.
func FIFO(t testing.TB, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
}

// ReadFile returns the content of path, failing the test on error.
func ReadFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// FileIs reports whether path is readable and holds exactly want, for
// waiting until a repair happened.
func FileIs(path, want string) bool {
	b, err := os.ReadFile(path)
	return err == nil && string(b) == want
}

// Exists reports whether anything, even a dangling symlink, is at path.
func Exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
