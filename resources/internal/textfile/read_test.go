package textfile_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	"github.com/reactive-ccm/ccm/resources/internal/textfile"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// TestReadRefuses: anything at the path but a regular file is refused,
// and so is a file too large to edit; a missing file or parent is a
// File that does not exist.
func TestReadRefuses(t *testing.T) {
	dir := t.TempDir()
	resourcetest.WriteFile(t, filepath.Join(dir, "target"), "secret\n", 0o600)
	resourcetest.WriteFile(t, filepath.Join(dir, "plain"), "x\n", 0o644)
	if err := os.Symlink("target", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "subdir"), 0o755); err != nil {
		t.Fatal(err)
	}
	resourcetest.FIFO(t, filepath.Join(dir, "fifo"))
	big, err := os.Create(filepath.Join(dir, "big"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(textfile.MaxSize + 1); err != nil {
		t.Fatal(err)
	}
	big.Close()
	tests := []struct {
		name string
		is   error
		msg  string
	}{
		{name: "link", is: textfile.ErrNotRegular, msg: "/link is not a regular file: a symlink is never followed"},
		{name: "subdir", is: textfile.ErrNotRegular, msg: "/subdir is not a regular file"},
		{name: "fifo", is: textfile.ErrNotRegular, msg: "/fifo is not a regular file"},
		{name: "big", msg: "/big is larger than 16777216 bytes, too large to edit"},
		{name: "missing"},
		{name: "missing/below"},
		{name: "plain/below"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := textfile.Read(safepath.Policy{}, filepath.Join(dir, tt.name))
			if tt.msg == "" {
				if err != nil || f.Exists || f.Content != nil {
					t.Fatalf("read %+v (%v), want a file that does not exist", f, err)
				}
				f.Close()
				return
			}
			if err == nil || !strings.HasSuffix(err.Error(), tt.msg) || tt.is != nil && !errors.Is(err, tt.is) {
				t.Fatalf("error %v, want %q", err, tt.msg)
			}
		})
	}
}

// TestReadRefusesAnUntrustedLinkOnTheWay: a symlinked directory on the
// way is followed only when root alone can have made it.
func TestReadRefusesAnUntrustedLinkOnTheWay(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root: the link's owner decides")
	}
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "real"), 0o755); err != nil {
		t.Fatal(err)
	}
	resourcetest.WriteFile(t, filepath.Join(dir, "real", "f"), "x\n", 0o644)
	link := filepath.Join(dir, "via")
	if err := os.Symlink("real", link); err != nil {
		t.Fatal(err)
	}
	if f, err := textfile.Read(safepath.Policy{}, filepath.Join(link, "f")); err != nil || string(f.Content) != "x\n" {
		t.Fatalf("through root's link: %v", err)
	} else {
		f.Close()
	}
	if err := os.Lchown(link, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	_, err := textfile.Read(safepath.Policy{}, filepath.Join(link, "f"))
	var se *safepath.SymlinkError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "the link is owned by uid 65534") {
		t.Fatalf("through nobody's link: %v, want a SymlinkError", err)
	}
}

func TestReplaceWithoutParent(t *testing.T) {
	f, err := textfile.Read(safepath.Policy{}, filepath.Join(t.TempDir(), "gone", "f"))
	if err != nil {
		t.Fatal(err)
	}
	err = f.Replace(t.Context(), []byte("x\n"), &textfile.Attrs{Mode: 0o644})
	if !errors.Is(err, textfile.ErrNoParent) || !strings.HasSuffix(err.Error(), "parent directory does not exist: of "+f.Path) {
		t.Fatalf("error %v, want ErrNoParent naming the path", err)
	}
	if err := f.Remove(); err != nil {
		t.Fatalf("removing a file without a parent: %v", err)
	}
}

// TestReplaceAndRemove: what File says follows its changes, and a file
// removed behind its back is no error to remove.
func TestReplaceAndRemove(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	f, err := textfile.Read(safepath.Policy{}, path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Remove(); err != nil {
		t.Fatalf("removing a missing file: %v", err)
	}
	if err := f.Replace(t.Context(), []byte("new\n"), &textfile.Attrs{UID: 5, GID: 6, Mode: 0o4640}); err != nil {
		t.Fatal(err)
	}
	if !f.Exists || string(f.Content) != "new\n" || f.UID != 5 || f.GID != 6 || f.Mode != 0o4640 {
		t.Fatalf("after creating: %+v", f)
	}
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil || st.Uid != 5 || st.Gid != 6 || st.Mode&0o7777 != 0o4640 {
		t.Fatalf("created %d:%d %04o (%v), want 5:6 4640", st.Uid, st.Gid, st.Mode&0o7777, err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Fatalf("the directory holds %v, want the file alone", entries)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := f.Remove(); err != nil || f.Exists || f.Content != nil {
		t.Fatalf("removing a file gone already: %+v (%v)", f, err)
	}
}

func TestReadSettledGivesUp(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	w, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := textfile.ReadSettled(t.Context(), safepath.Policy{}, path); !errors.Is(err, textfile.ErrBusy) || err.Error() != path+" is being written by another program; retrying later" {
		t.Fatalf("error %v, want ErrBusy", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := textfile.ReadSettled(ctx, safepath.Policy{}, path); !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want the context's", err)
	}
}

// TestLockSerialisesEdits: edits of one path under Lock never interleave
// (none is lost, and the race detector sees the counter), and the lock is forgotten once
// no one holds or waits for it.
func TestLockSerialisesEdits(t *testing.T) {
	var a, b int
	var wg sync.WaitGroup
	for i := range 40 {
		path, count := "/a", &a
		if i%2 == 1 {
			path, count = "/b", &b
		}
		wg.Go(func() {
			defer textfile.Lock(path)()
			// A read and a write apart, with others let in between.
			n := *count
			runtime.Gosched()
			*count = n + 1
		})
	}
	wg.Wait()
	if a != 20 || b != 20 {
		t.Fatalf("counts %d and %d, want 20 each", a, b)
	}
	if n := textfile.Locked(); n != 0 {
		t.Fatalf("%d locks kept after their release", n)
	}
}

func TestWithout(t *testing.T) {
	lines := []string{"a", "b", "c", "d"}
	tests := []struct {
		drop []int
		want string
	}{
		{nil, "a b c d"},
		{[]int{0}, "b c d"},
		{[]int{1, 3}, "a c"},
		{[]int{0, 1, 2, 3}, ""},
	}
	for _, tt := range tests {
		if got := strings.Join(textfile.Without(lines, tt.drop), " "); got != tt.want {
			t.Errorf("Without(%v) = %q, want %q", tt.drop, got, tt.want)
		}
	}
	if strings.Join(lines, " ") != "a b c d" {
		t.Errorf("Without changed its input: %q", lines)
	}
}

// TestReplaceIgnoresCreateForAFileThatExists: the attributes for a new
// file never change one that exists; and ReadSettled refuses at once
// what Read refuses.
func TestReplaceIgnoresCreateForAFileThatExists(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	resourcetest.WriteFile(t, path, "a\n", 0o600)
	f, err := textfile.ReadSettled(t.Context(), safepath.Policy{}, path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Replace(t.Context(), []byte("b\n"), &textfile.Attrs{UID: 9, GID: 9, Mode: 0o644}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 || f.UID == 9 {
		t.Fatalf("after replace: %v %v, File %+v", fi.Mode(), err, f)
	}
	if err := os.Symlink(path, path+".link"); err != nil {
		t.Fatal(err)
	}
	if _, err := textfile.ReadSettled(t.Context(), safepath.Policy{}, path+".link"); !errors.Is(err, textfile.ErrNotRegular) {
		t.Fatalf("a symlink: %v", err)
	}
}
