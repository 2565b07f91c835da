package resourcetest

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// victimSecret is what the file in a Victim directory holds.
const victimSecret = "root's secret\n"

// Victim makes a root-only directory holding a root-only file, secret,
// that reads "root's secret\n", for an attack to aim a link at, and
// returns the directory.
func Victim(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "victim")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	WriteFile(t, filepath.Join(dir, "secret"), victimSecret, 0o600)
	return dir
}

// Untouched fails the test unless the Victim directory dir holds only its
// secret, as it was: nothing written, extracted or removed through a link.
func Untouched(t testing.TB, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 1 || entries[0].Name() != "secret" {
		t.Fatalf("the victim directory now holds %v (%v)", entries, err)
	}
	fi, err := os.Lstat(filepath.Join(dir, "secret"))
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	if st.Uid != 0 || !fi.Mode().IsRegular() || st.Mode&0o7777 != 0o600 || ReadFile(t, filepath.Join(dir, "secret")) != victimSecret {
		t.Fatalf("the secret changed: uid %d mode %v", st.Uid, fi.Mode())
	}
}
