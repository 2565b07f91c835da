package state_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/engine/daemon/state"
)

// TestUnsafeSubdirectoriesAreRefused: a subdirectory is checked as the
// state directory is, and the error says what to do about it.
func TestUnsafeSubdirectoriesAreRefused(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a directory to another user")
	}
	for _, c := range []struct {
		name  string
		setup func(path string) error
		want  string
	}{
		{"owned by another user", func(p string) error { return errors.Join(os.Mkdir(p, 0o700), os.Chown(p, 65534, 65534)) },
			"is owned by uid 65534, not 0; chown it or choose another --state-dir"},
		{"writable by others", func(p string) error { return errors.Join(os.Mkdir(p, 0o700), os.Chmod(p, 0o720)) },
			"is writable by others (mode 0720); check what it holds, then chmod 0700 it"},
		{"a file", func(p string) error { return os.WriteFile(p, nil, 0o600) },
			"is not a directory; remove it or choose another --state-dir"},
		{"a symlink to a directory", func(p string) error { return os.Symlink(filepath.Dir(p), p) },
			"is not a directory; remove it or choose another --state-dir"},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := open(t)
			path := filepath.Join(d.Path(), "rollback")
			if err := c.setup(path); err != nil {
				t.Fatal(err)
			}
			for name, dir := range map[string]func() (*state.Dir, error){
				"Sub": func() (*state.Dir, error) { return d.Sub("rollback") },
				"read-only Sub": func() (*state.Dir, error) {
					ro, err := state.OpenReadOnly(d.Path())
					if err != nil {
						return nil, err
					}
					defer ro.Close()
					return ro.Sub("rollback")
				},
			} {
				sub, err := dir()
				if sub != nil {
					sub.Close()
				}
				if !errors.Is(err, state.ErrUnsafe) || !strings.Contains(err.Error(), path+" "+c.want) {
					t.Errorf("%s = %v; want ErrUnsafe saying %q", name, err, path+" "+c.want)
				}
			}
		})
	}
}

func TestAReadableSubdirectoryIsMadePrivate(t *testing.T) {
	d := open(t)
	path := filepath.Join(d.Path(), "bundles")
	if err := os.Mkdir(path, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o755); err != nil {
		t.Fatal(err)
	}
	ro := mustOpen(t, state.OpenReadOnly, d.Path())
	subOf(t, ro, "bundles")
	if m := mode(t, path); m != 0o755 {
		t.Fatalf("mode %04o after a read-only Sub, want 0755 left alone", m)
	}
	subOf(t, d, "bundles")
	if m := mode(t, path); m != 0o700 {
		t.Fatalf("mode %04o after Sub, want 0700", m)
	}
}

func TestARelativePathIsMadeAbsolute(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	d := mustOpen(t, state.Open, "state")
	if want := filepath.Join(dir, "state"); d.Path() != want {
		t.Fatalf("Path() = %q, want %q", d.Path(), want)
	}
	if err := d.WriteFile("x", []byte("1")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	if b, err := d.ReadFile("x"); err != nil || string(b) != "1" {
		t.Fatalf("after a change of directory: %q, %v", b, err)
	}
}

// TestErrorsNameTheFile: a read of a missing or a subdirectory's name
// says which.
func TestErrorsNameTheFile(t *testing.T) {
	d := open(t)
	if _, err := d.ReadFile("none"); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "reading "+filepath.Join(d.Path(), "none")) {
		t.Errorf("ReadFile(missing) = %v; want ErrNotExist naming the file", err)
	}
	sub, err := d.Sub("refreshes")
	if err == nil {
		err = sub.Create()
	}
	if err != nil {
		t.Fatal(err)
	}
	sub.Close()
	if err := d.WriteFile("refreshes", []byte("x")); err == nil || !strings.Contains(err.Error(), "replacing "+sub.Path()) {
		t.Errorf("WriteFile over a subdirectory = %v; want an error naming it", err)
	}
	if entries, _ := os.ReadDir(d.Path()); len(entries) != 1 {
		t.Errorf("a failed write left %v beside the subdirectory", entries)
	}
	if err := d.Remove("none"); err != nil {
		t.Errorf("Remove of what is not there = %v, want none", err)
	}
}
