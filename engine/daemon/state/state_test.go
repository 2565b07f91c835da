package state_test

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/reactive-ccm/ccm/engine/daemon/state"
)

// open is a state directory in the test's temporary directory, made.
func open(t *testing.T) *state.Dir {
	t.Helper()
	d := mustOpen(t, state.Open, filepath.Join(t.TempDir(), "var", "lib", "ccm"))
	if err := d.Create(); err != nil {
		t.Fatal(err)
	}
	return d
}

// mustOpen is the directory opener (state.Open or OpenReadOnly) opens at
// path, closed when the test ends.
func mustOpen(t *testing.T, opener func(string) (*state.Dir, error), path string) *state.Dir {
	t.Helper()
	d, err := opener(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// subOf is d's subdirectory name, closed when the test ends.
func subOf(t *testing.T, d *state.Dir, name string) *state.Dir {
	t.Helper()
	sub, err := d.Sub(name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sub.Close() })
	return sub
}

func mode(t *testing.T, path string) fs.FileMode {
	t.Helper()
	st, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Mode().Perm()
}

func TestWriteReadRemove(t *testing.T) {
	d := open(t)
	if _, err := d.ReadFile("pending"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("reading a missing name: %v, want fs.ErrNotExist", err)
	}
	for _, content := range []string{"one", "two, longer"} {
		if err := d.WriteFile("pending", []byte(content)); err != nil {
			t.Fatal(err)
		}
		if b, err := d.ReadFile("pending"); err != nil || string(b) != content {
			t.Fatalf("read %q, %v; want %q", b, err, content)
		}
	}
	if m := mode(t, filepath.Join(d.Path(), "pending")); m != 0o600 {
		t.Errorf("file mode %04o, want 0600", m)
	}
	if m := mode(t, d.Path()); m != 0o700 {
		t.Errorf("directory mode %04o, want 0700", m)
	}
	if err := d.Remove("pending"); err != nil {
		t.Fatal(err)
	}
	if err := d.Remove("pending"); err != nil {
		t.Fatalf("removing a missing name: %v", err)
	}
	if names, err := d.Names(); err != nil || len(names) != 0 {
		t.Fatalf("names after removal %v, %v", names, err)
	}
}

func TestJSON(t *testing.T) {
	d := open(t)
	type rec struct{ Pending []string }
	var got rec
	if found, err := d.ReadJSON("g", &got); found || err != nil {
		t.Fatalf("missing file: found=%v err=%v", found, err)
	}
	want := rec{Pending: []string{"exec#restart", "service#app"}}
	if err := d.WriteJSON("g", want); err != nil {
		t.Fatal(err)
	}
	if found, err := d.ReadJSON("g", &got); !found || err != nil || !slices.Equal(got.Pending, want.Pending) {
		t.Fatalf("read back %+v found=%v err=%v", got, found, err)
	}
	if err := d.WriteFile("g", []byte("{")); err != nil {
		t.Fatal(err)
	}
	if _, err := d.ReadJSON("g", &got); err == nil {
		t.Fatal("a corrupt file decoded without error")
	}
}

func TestBadNamesAreRefused(t *testing.T) {
	d := open(t)
	for _, name := range []string{"", ".", "..", "../escape", "a/b", "nul\x00", ".hidden", string(make([]byte, 300))} {
		if err := d.WriteFile(name, nil); !errors.Is(err, state.ErrBadName) {
			t.Errorf("WriteFile(%q) = %v, want ErrBadName", name, err)
		}
		if _, err := d.Sub(name); !errors.Is(err, state.ErrBadName) {
			t.Errorf("Sub(%q) = %v, want ErrBadName", name, err)
		}
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(d.Path()), "escape")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatal("a name escaped the directory")
	}
}

func TestLeftoverTemporaryFilesAreRemovedOnOpen(t *testing.T) {
	d := open(t)
	if err := d.WriteFile("kept", []byte("x")); err != nil {
		t.Fatal(err)
	}
	leftover := filepath.Join(d.Path(), ".tmp-kept-crashed")
	if err := os.WriteFile(leftover, []byte("half"), 0o600); err != nil {
		t.Fatal(err)
	}
	again := mustOpen(t, state.Open, d.Path())
	if _, err := os.Stat(leftover); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("leftover temporary file still there: %v", err)
	}
	if names, _ := again.Names(); !slices.Equal(names, []string{"kept"}) {
		t.Fatalf("names = %v, want [kept]", names)
	}
}

func TestSubdirectories(t *testing.T) {
	d := open(t)
	sub := subOf(t, d, "rollback")
	if err := sub.WriteFile("file-etc-motd", []byte("last good")); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(d.Path(), "rollback", "file-etc-motd")); err != nil || string(b) != "last good" {
		t.Fatalf("content %q, %v", b, err)
	}
	if m := mode(t, sub.Path()); m != 0o700 {
		t.Errorf("subdirectory mode %04o, want 0700", m)
	}
	if names, _ := d.Names(); len(names) != 0 {
		t.Errorf("subdirectories listed as names: %v", names)
	}
}

func TestUnsafeDirectoriesAreRefused(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a directory to another user")
	}
	base := t.TempDir()
	cases := map[string]func(path string) error{
		"owned by another user": func(p string) error {
			return errors.Join(os.Mkdir(p, 0o700), os.Chown(p, 65534, 65534))
		},
		"writable by others": func(p string) error {
			return errors.Join(os.Mkdir(p, 0o700), os.Chmod(p, 0o777))
		},
		"a symlink another user owns": func(p string) error {
			return errors.Join(os.Mkdir(p+"-target", 0o700), os.Symlink(p+"-target", p), os.Lchown(p, 65534, 65534))
		},
		"a file": func(p string) error { return os.WriteFile(p, nil, 0o600) },
		"under a directory another user owns": func(p string) error {
			return errors.Join(os.Mkdir(filepath.Dir(p), 0o755), os.Mkdir(p, 0o700), os.Chown(filepath.Dir(p), 65534, 65534))
		},
		"under a directory others may write": func(p string) error {
			return errors.Join(os.Mkdir(filepath.Dir(p), 0o755), os.Mkdir(p, 0o700), os.Chmod(filepath.Dir(p), 0o777))
		},
		// Missing, yet refused at open, not at the first write.
		"under a directory another user owns, missing": func(p string) error {
			return errors.Join(os.Mkdir(filepath.Dir(p), 0o755), os.Chown(filepath.Dir(p), 65534, 65534))
		},
	}
	for name, setup := range cases {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(base, filepath.Base(t.Name()))
			if strings.HasPrefix(name, "under") {
				path = filepath.Join(path, "state")
			}
			if err := setup(path); err != nil {
				t.Fatal(err)
			}
			for name, open := range map[string]func(string) (*state.Dir, error){"Open": state.Open, "OpenReadOnly": state.OpenReadOnly} {
				if d, err := open(path); !errors.Is(err, state.ErrUnsafe) {
					if d != nil {
						d.Close()
					}
					t.Fatalf("%s = %v, want ErrUnsafe", name, err)
				}
			}
		})
	}
}

func TestADirectoryUnderAStickyOneIsUsed(t *testing.T) {
	tmp := filepath.Join(t.TempDir(), "tmp")
	if err := errors.Join(os.Mkdir(tmp, 0o755), os.Chmod(tmp, os.ModeSticky|0o777)); err != nil {
		t.Fatal(err)
	}
	d, err := state.Open(filepath.Join(tmp, "ccm", "state"))
	if err == nil {
		err = d.Create()
	}
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
}

func TestReadableDirectoryIsMadePrivate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ccm")
	if err := os.Mkdir(path, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o755); err != nil {
		t.Fatal(err)
	}
	mustOpen(t, state.Open, path)
	if m := mode(t, path); m != 0o700 {
		t.Fatalf("mode %04o after Open, want 0700", m)
	}
}

func TestConcurrentWritersLeaveOneWholeContent(t *testing.T) {
	d := open(t)
	contents := [][]byte{bytes.Repeat([]byte("a"), 1<<16), bytes.Repeat([]byte("b"), 1<<17)}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for range 20 {
				if err := d.WriteFile("shared", contents[i%2]); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	b, err := d.ReadFile("shared")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, contents[0]) && !bytes.Equal(b, contents[1]) {
		t.Fatalf("content of %d bytes is neither writer's whole content", len(b))
	}
	if entries, _ := os.ReadDir(d.Path()); len(entries) != 1 {
		t.Fatalf("%d entries left, want only the file", len(entries))
	}
}

func TestKeyIsStableAndSeparatesParts(t *testing.T) {
	if a, b := state.Key("/a", "/b"), state.Key("/a", "/b"); a != b || len(a) != 24 {
		t.Fatalf("Key gave %q then %q; want the same 24 hex digits", a, b)
	}
	if state.Key("/a", "/b") == state.Key("/a/", "b") || state.Key("/a", "/b") == state.Key("/b", "/a") {
		t.Fatal("Key does not tell parts or their order apart")
	}
}

// TestReadOnlyChangesNothing: a read-only open reads what is kept and
// refuses every write, without creating, making private or cleaning up.
func TestReadOnlyChangesNothing(t *testing.T) {
	d := open(t)
	sub := subOf(t, d, "refreshes")
	if err := sub.WriteFile("kept", []byte("x")); err != nil {
		t.Fatal(err)
	}
	leftover := filepath.Join(d.Path(), ".tmp-kept-crashed")
	if err := os.WriteFile(leftover, []byte("half"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(d.Path(), 0o750); err != nil {
		t.Fatal(err)
	}

	ro := mustOpen(t, state.OpenReadOnly, d.Path())
	rsub := subOf(t, ro, "refreshes")
	if b, err := rsub.ReadFile("kept"); err != nil || string(b) != "x" {
		t.Fatalf("read %q, %v", b, err)
	}
	for what, err := range map[string]error{
		"WriteFile": rsub.WriteFile("kept", []byte("y")),
		"WriteJSON": ro.WriteJSON("new", 1),
		"Remove":    rsub.Remove("kept"),
	} {
		if !errors.Is(err, state.ErrReadOnly) {
			t.Errorf("%s = %v, want ErrReadOnly", what, err)
		}
	}
	if _, err := ro.Sub("rollback"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Sub of a missing subdirectory = %v, want fs.ErrNotExist", err)
	}
	if _, err := os.Stat(filepath.Join(d.Path(), "rollback")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing subdirectory was created: %v", err)
	}
	if _, err := os.Stat(leftover); err != nil {
		t.Errorf("the leftover was cleaned up: %v", err)
	}
	if m := mode(t, d.Path()); m != 0o750 {
		t.Errorf("mode %04o after a read-only open, want 0750 left alone", m)
	}
	if b, _ := os.ReadFile(filepath.Join(sub.Path(), "kept")); string(b) != "x" {
		t.Errorf("kept = %q after refused writes", b)
	}
	missing := filepath.Join(t.TempDir(), "none")
	if _, err := state.OpenReadOnly(missing); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("OpenReadOnly of a missing directory = %v, want fs.ErrNotExist", err)
	}
	if _, err := os.Stat(missing); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing state directory was created: %v", err)
	}
}

func TestResolve(t *testing.T) {
	for _, tc := range []struct {
		name, named, env, want string
		explicit               bool
	}{
		{"named", "/srv/state", "/env/state", "/srv/state", true},
		{"from the environment", "", "/env/state", "/env/state", true},
		{"the default", "", "", state.DefaultPath, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(state.PathEnv, tc.env)
			if path, explicit := state.Resolve(tc.named); path != tc.want || explicit != tc.explicit {
				t.Errorf("Resolve(%q) = %q, %v; want %q, %v", tc.named, path, explicit, tc.want, tc.explicit)
			}
		})
	}
}

func TestGraphKeyIsTheSameFromAnyDirectory(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	rel := state.GraphKey("site.yaml", "data/web.yaml")
	if abs := state.GraphKey(filepath.Join(dir, "site.yaml"), filepath.Join(dir, "data/web.yaml")); rel != abs {
		t.Errorf("relative %s, absolute %s", rel, abs)
	}
	if other := state.GraphKey(filepath.Join(dir, "data/web.yaml"), filepath.Join(dir, "site.yaml")); other == rel {
		t.Error("the order of the manifests does not change the key")
	}
}

// A state directory named on purpose that cannot be used is an error; a
// missing one read only is none, and is not created; a missing one is
// made by the first write.
func TestOpenNamed(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if d, unusable, err := state.OpenNamed(filepath.Join(file, "state"), false); d != nil || unusable != nil || err == nil {
		t.Errorf("OpenNamed under a file = %v, %v, %v; want an error", d, unusable, err)
	}
	missing := filepath.Join(dir, "missing")
	if d, unusable, err := state.OpenNamed(missing, true); d != nil || unusable != nil || err != nil {
		t.Errorf("OpenNamed of a missing directory, read only = %v, %v, %v; want none", d, unusable, err)
	}
	if _, err := os.Stat(missing); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing state directory was created: %v", err)
	}
	t.Setenv(state.PathEnv, missing)
	d, unusable, err := state.OpenNamed("", false)
	if err != nil || unusable != nil || d == nil {
		t.Fatalf("OpenNamed of $%s = %v, %v, %v; want it made", state.PathEnv, d, unusable, err)
	}
	defer d.Close()
	if _, err := os.Stat(missing); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the state directory $%s names was made before a write: %v", state.PathEnv, err)
	}
	if err := d.WriteFile("x", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(missing); err != nil {
		t.Errorf("the state directory $%s names was not made: %v", state.PathEnv, err)
	}
}
