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

// TestTempLifecycle: a temporary file reports what WriteTemp wrote, can
// be read by a second descriptor whatever its name, gets only the
// attributes it lacks, and is gone after Abort, even if gone before.
func TestTempLifecycle(t *testing.T) {
	needRoot(t)
	dir := t.TempDir()
	d := openDir(t, dir)
	tmp, st, err := d.WriteTemp("conf", 0o640, strings.NewReader("content"))
	if err != nil {
		t.Fatal(err)
	}
	if tmp.Size() != 7 || tmp.Device() != st.Dev || st.Uid != 0 || st.Mode&0o777 != 0o640&^umask() {
		t.Fatalf("size %d, device %d of %d, status uid %d mode %o", tmp.Size(), tmp.Device(), st.Dev, st.Uid, st.Mode&0o777)
	}
	if err := errors.Join(tmp.SyncFS(), tmp.Settled()); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, "elsewhere")); err != nil {
		t.Fatal(err)
	}
	r, err := tmp.Reopen()
	if err != nil {
		t.Fatal(err)
	}
	if b, err := io.ReadAll(r); err != nil || string(b) != "content" {
		t.Fatalf("reopened: %q, %v", b, err)
	}
	r.Close()
	if err := tmp.SetAttrs(&st, nobody, nobody, 0o600); err != nil {
		t.Fatal(err)
	}
	now := stat(t, d, "elsewhere")
	if now.Uid != nobody || now.Gid != nobody || now.Mode&0o7777 != 0o600 {
		t.Fatalf("after SetAttrs of owner and mode: %d:%d %o", now.Uid, now.Gid, now.Mode&0o7777)
	}
	if err := tmp.SetAttrs(&now, nobody, 0, 0o640); err != nil {
		t.Fatal(err)
	}
	if now = stat(t, d, "elsewhere"); now.Uid != nobody || now.Gid != 0 || now.Mode&0o7777 != 0o640 {
		t.Fatalf("after SetAttrs of the group and mode: %d:%d %o", now.Uid, now.Gid, now.Mode&0o7777)
	}
	if err := tmp.Abort(); err != nil {
		t.Fatalf("aborting a temporary file renamed away: %v", err)
	}
	if got := list(t, dir); !slices.Equal(got, []string{"elsewhere"}) {
		t.Fatalf("left %q", got)
	}
}

// TestCommitOverADirectoryFails: a temporary file cannot replace a
// directory; the failed commit removes it.
func TestCommitOverADirectoryFails(t *testing.T) {
	dir := t.TempDir()
	mkdir(t, filepath.Join(dir, "conf"))
	d := openDir(t, dir)
	tmp, err := d.CreateTemp("conf")
	if err != nil {
		t.Fatal(err)
	}
	if err := tmp.Commit(); err == nil {
		t.Fatal("a file replaced a directory")
	}
	if got := list(t, dir); !slices.Equal(got, []string{"conf"}) {
		t.Fatalf("left %q, want the directory alone", got)
	}
	for _, bad := range []string{"", "..", "a/b"} {
		if _, err := d.CreateTemp(bad); !errors.Is(err, ErrBadName) {
			t.Errorf("CreateTemp(%q): %v", bad, err)
		}
	}
}

// TestRemoveAllKinds: RemoveAll removes a file, a FIFO, a link (not its
// target) and a tree, and refuses a name that is not one component.
func TestRemoveAllKinds(t *testing.T) {
	dir := tree(t)
	top := filepath.Join(dir, "top")
	mkdir(t, filepath.Join(top, "empty"))
	resourcetest.WriteFile(t, filepath.Join(top, "file"), "x", 0o644)
	resourcetest.FIFO(t, filepath.Join(top, "fifo"))
	symlink(t, filepath.Join(dir, "real"), filepath.Join(top, "link"), os.Getuid())
	d := openDir(t, top)
	for _, name := range []string{"file", "fifo", "link", "empty"} {
		if err := d.RemoveAll(name); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if got := list(t, top); len(got) != 0 {
		t.Fatalf("left %q", got)
	}
	if got := resourcetest.ReadFile(t, filepath.Join(dir, "real", "file")); got != "secret" {
		t.Fatal("the link's target was touched")
	}
	for _, bad := range []string{".", "..", "a/b", ""} {
		err := d.RemoveAll(bad)
		wantErr(t, err, ErrBadName)
	}
	var st unix.Stat_t
	if err := unix.Stat(top, &st); err != nil {
		t.Fatal("RemoveAll(\".\") removed the directory itself")
	}
}
