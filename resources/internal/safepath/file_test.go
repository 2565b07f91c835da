package safepath

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestFileCalls: the raw File reads to io.EOF, writes all it is given,
// seeks, hands its descriptor over once, and closes once.
func TestFileCalls(t *testing.T) {
	dir := t.TempDir()
	d := openDir(t, dir)
	tmp, err := d.CreateTemp("f")
	if err != nil {
		t.Fatal(err)
	}
	f := tmp.File
	if n, err := f.Write([]byte("hello world")); n != 11 || err != nil {
		t.Fatalf("write %d, %v", n, err)
	}
	if off, err := f.Seek(6, io.SeekStart); off != 6 || err != nil {
		t.Fatalf("seek %d, %v", off, err)
	}
	if b, err := io.ReadAll(f); string(b) != "world" || err != nil {
		t.Fatalf("read %q, %v", b, err)
	}
	if n, err := f.Read(make([]byte, 4)); n != 0 || err != io.EOF {
		t.Fatalf("read at the end: %d, %v", n, err)
	}
	if n, err := f.Read(nil); n != 0 || err != nil {
		t.Fatalf("an empty read: %d, %v", n, err)
	}
	if _, err := f.Seek(-1, io.SeekStart); err == nil || !strings.HasPrefix(err.Error(), "seek "+f.Name()) {
		t.Fatalf("a bad seek: %v", err)
	}
	o := f.Detach()
	defer o.Close()
	if err := f.Close(); err != nil {
		t.Fatalf("closing a detached file: %v", err)
	}
	if st, err := o.Stat(); err != nil || st.Size() != 11 {
		t.Fatalf("the detached descriptor: %v, %v", st, err)
	}
	if err := tmp.dir.Unlink(tmp.tmp); err != nil {
		t.Fatal(err)
	}
}

// TestDirCallsNameTheirPath: each Dir call's error names the path it
// acted on and keeps the system's error.
func TestDirCallsNameTheirPath(t *testing.T) {
	dir := t.TempDir()
	mkdir(t, filepath.Join(dir, "sub", "inner"))
	if err := os.WriteFile(filepath.Join(dir, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	d := openDir(t, dir)
	tests := []struct {
		name string
		err  error
		want string
		is   error
	}{
		{"mkdir over a file", d.Mkdir("file", 0o755), "mkdir " + dir + "/file", unix.EEXIST},
		{"rmdir of a non-empty directory", d.Rmdir("sub"), "rmdir " + dir + "/sub", unix.ENOTEMPTY},
		{"unlink of a directory", d.Unlink("sub"), "unlink " + dir + "/sub", unix.EISDIR},
		{"readlink of a file", func() error { _, err := d.Readlink("file"); return err }(), "readlink " + dir + "/file", unix.EINVAL},
		{"rename of a missing name", d.Rename("missing", "other"), "rename " + dir + "/other", unix.ENOENT},
		{"stat of a missing name", func() error { _, err := d.Stat("missing"); return err }(), "lstat " + dir + "/missing", unix.ENOENT},
	}
	for _, tt := range tests {
		if tt.err == nil || !strings.HasPrefix(tt.err.Error(), tt.want+": ") || !errors.Is(tt.err, tt.is) {
			t.Errorf("%s: %v, want %q and %v", tt.name, tt.err, tt.want, tt.is)
		}
	}
	if err := d.Rename("file", "renamed"); err != nil {
		t.Fatal(err)
	}
	if got := list(t, dir); !slices.Equal(got, []string{"renamed", "sub"}) {
		t.Fatalf("after the rename: %q", got)
	}
}

// TestWalkStopsAtTheFirstError: an error from the function ends the walk
// and is returned; a directory it is told about is entered only after.
func TestWalkStopsAtTheFirstError(t *testing.T) {
	dir := t.TempDir()
	mkdir(t, filepath.Join(dir, "a", "b"))
	d := openDir(t, dir)
	stop := errors.New("stop")
	var seen []string
	err := d.Walk(func(_ *Dir, _, rel string, _ bool) error {
		seen = append(seen, rel)
		if rel == "a/b" {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || !slices.Equal(seen, []string{"a", "a/b"}) {
		t.Fatalf("error %v after %q", err, seen)
	}
	seen = nil
	err = d.Walk(func(_ *Dir, _, rel string, _ bool) error { seen = append(seen, rel); return stop })
	if !errors.Is(err, stop) || !slices.Equal(seen, []string{"a"}) {
		t.Fatalf("a directory refused: error %v after %q", err, seen)
	}
}

// TestSubdirsReopenAfterClose: a top-level name needs no open; Close
// releases every directory opened, and a later Parent opens it again.
func TestSubdirsReopenAfterClose(t *testing.T) {
	dir := t.TempDir()
	mkdir(t, filepath.Join(dir, "a", "b"))
	root := openDir(t, dir)
	subs := root.Subdirs()
	if d, base, err := subs.Parent("top"); d != root || base != "top" || err != nil {
		t.Fatalf("a top-level name: %v %q %v", d, base, err)
	}
	first, base, err := subs.Parent("a/b/f")
	if err != nil || base != "f" || first.Path() != filepath.Join(dir, "a", "b") {
		t.Fatalf("%v %q %v", first, base, err)
	}
	if err := subs.Close(); err != nil {
		t.Fatal(err)
	}
	if first.fd != -1 {
		t.Fatal("Close left a directory open")
	}
	again, _, err := subs.Parent("a/b/g")
	if err != nil || again == first || again.fd < 0 {
		t.Fatalf("after Close: %v, %v", again, err)
	}
	if err := subs.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestMkdirAllMode: every directory MkdirAll makes gets the mode, less
// the umask; one already there keeps its own.
func TestMkdirAllMode(t *testing.T) {
	dir := t.TempDir()
	mkdir(t, filepath.Join(dir, "old"))
	chmod(t, filepath.Join(dir, "old"), 0o700)
	d, err := Policy{}.MkdirAll(filepath.Join(dir, "old", "a", "b"), 0o751)
	if err != nil {
		t.Fatal(err)
	}
	closeDir(t, d)
	for rel, want := range map[string]uint32{"old": 0o700, "old/a": 0o751 &^ umask(), "old/a/b": 0o751 &^ umask()} {
		var st unix.Stat_t
		if err := unix.Stat(filepath.Join(dir, rel), &st); err != nil || st.Mode&0o7777 != want {
			t.Errorf("%s: mode %o (%v), want %o", rel, st.Mode&0o7777, err, want)
		}
	}
}
