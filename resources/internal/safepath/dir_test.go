package safepath

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"golang.org/x/sys/unix"
)

func TestSetAttrs(t *testing.T) {
	needRoot(t)
	bothWays(t, func(t *testing.T) {
		dir := tree(t)
		d := openDir(t, filepath.Join(dir, "real"))
		if err := d.SetAttrs("file", nobody, nobody, 0o600); err != nil {
			t.Fatal(err)
		}
		if st := stat(t, d, "file"); st.Uid != nobody || st.Mode&0o7777 != 0o600 {
			t.Fatalf("uid %d mode %o", st.Uid, st.Mode&0o7777)
		}
		symlink(t, filepath.Join(dir, "victim"), filepath.Join(dir, "real", "link"), nobody)
		resourcetest.WriteFile(t, filepath.Join(dir, "victim"), "root's", 0o644)
		chmod(t, filepath.Join(dir, "victim"), 0o600)
		wantErr(t, d.SetAttrs("link", nobody, nobody, 0o644), unix.ELOOP)
		if fi, _ := os.Stat(filepath.Join(dir, "victim")); fi.Mode().Perm() != 0o600 {
			t.Fatalf("the link's target became %v", fi.Mode())
		}
	})
}

// SetLinkOwner changes a symlink itself, never its target, and refuses
// anything but a symlink.
func TestSetLinkOwner(t *testing.T) {
	needRoot(t)
	dir := tree(t)
	resourcetest.WriteFile(t, filepath.Join(dir, "victim"), "root's", 0o644)
	symlink(t, filepath.Join(dir, "victim"), filepath.Join(dir, "real", "link"), 0)
	d := openDir(t, filepath.Join(dir, "real"))
	if err := d.SetLinkOwner("link", nobody, nobody); err != nil {
		t.Fatal(err)
	}
	var st unix.Stat_t
	if err := unix.Lstat(filepath.Join(dir, "real", "link"), &st); err != nil || st.Uid != nobody || st.Gid != nobody {
		t.Fatalf("the link: uid %d gid %d (%v), want nobody's", st.Uid, st.Gid, err)
	}
	if err := unix.Stat(filepath.Join(dir, "victim"), &st); err != nil || st.Uid != 0 {
		t.Fatalf("the link's target: uid %d (%v), want root's still", st.Uid, err)
	}
	if err := d.SetLinkOwner("file", nobody, nobody); err == nil {
		t.Fatal("a regular file given away as a link")
	}
	if st := stat(t, d, "file"); st.Uid != 0 {
		t.Fatalf("the file refused now belongs to %d", st.Uid)
	}
}

func TestSetAttrsHardLinked(t *testing.T) {
	needRoot(t)
	dir := tree(t)
	if err := os.Link(filepath.Join(dir, "real", "file"), filepath.Join(dir, "real", "other")); err != nil {
		t.Fatal(err)
	}
	d := openDir(t, filepath.Join(dir, "real"))
	if err := d.SetAttrs("file", 0, 0, 0o640); err != nil {
		t.Fatalf("a hard link in a root-only directory: %v", err)
	}
	chmod(t, filepath.Join(dir, "real"), 0o777)
	wantErr(t, d.SetAttrs("file", nobody, nobody, 0o666), ErrHardLinked)
	if st := stat(t, d, "other"); st.Uid != 0 || st.Mode&0o777 != 0o640 {
		t.Fatalf("uid %d mode %o", st.Uid, st.Mode&0o777)
	}
}

func TestTempCommitAndAbort(t *testing.T) {
	bothWays(t, func(t *testing.T) {
		dir := tree(t)
		d := openDir(t, filepath.Join(dir, "real"))
		tmp, err := d.CreateTemp("file")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(tmp, "new"); err != nil {
			t.Fatal(err)
		}
		if err := tmp.Commit(); err != nil {
			t.Fatal(err)
		}
		if got := resourcetest.ReadFile(t, filepath.Join(dir, "real", "file")); got != "new" {
			t.Fatalf("content %q", got)
		}
		tmp, err = d.CreateTemp("file")
		if err != nil {
			t.Fatal(err)
		}
		if err := tmp.Abort(); err != nil {
			t.Fatal(err)
		}
		if names := list(t, filepath.Join(dir, "real")); len(names) != 1 {
			t.Fatalf("left %v", names)
		}
	})
}

// TestTempReopen: the second descriptor reads the temporary file itself,
// even once another file took its name.
func TestTempReopen(t *testing.T) {
	dir := tree(t)
	real := filepath.Join(dir, "real")
	d := openDir(t, real)
	tmp, err := d.CreateTemp("file")
	if err != nil {
		t.Fatal(err)
	}
	defer tmp.Abort()
	if _, err := io.WriteString(tmp, "new content"); err != nil {
		t.Fatal(err)
	}
	r, err := tmp.Reopen()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := os.Rename(filepath.Join(real, "file"), tmp.Name()); err != nil {
		t.Fatal(err)
	}
	if b, err := io.ReadAll(r); err != nil || string(b) != "new content" {
		t.Fatalf("read %q, %v", b, err)
	}
	if _, err := r.Write([]byte("x")); err == nil {
		t.Fatal("the second descriptor is writable")
	}
}

func TestRemoveLeftovers(t *testing.T) {
	dir := tree(t)
	real := filepath.Join(dir, "real")
	resourcetest.WriteFile(t, filepath.Join(real, ".file.ccm-123"), "killed run", 0o644)
	resourcetest.WriteFile(t, filepath.Join(real, ".file.ccm-x"), "not ours", 0o644)
	resourcetest.WriteFile(t, filepath.Join(real, ".other.ccm-9"), "another file's", 0o644)
	d := openDir(t, real)
	// A writer at work holds its lock: its file stays.
	busy, err := d.CreateTemp("file")
	if err != nil {
		t.Fatal(err)
	}
	if err := d.RemoveLeftovers("file"); err != nil {
		t.Fatal(err)
	}
	if resourcetest.Exists(filepath.Join(real, ".file.ccm-123")) {
		t.Fatal("the leftover stayed")
	}
	for _, name := range []string{".file.ccm-x", ".other.ccm-9", filepath.Base(busy.Name())} {
		if !resourcetest.Exists(filepath.Join(real, name)) {
			t.Fatalf("%s was removed", name)
		}
	}
	if err := busy.Commit(); err != nil {
		t.Fatal(err)
	}
}

// list returns the names in dir.
func list(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, de := range des {
		out = append(out, de.Name())
	}
	return out
}

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
