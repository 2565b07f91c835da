package safepath

import (
	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"io"
	"os"
	"path/filepath"
	"testing"

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
