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

// onFirstRead runs fn before the first read of r: while WriteTemp writes.
type onFirstRead struct {
	r  io.Reader
	fn func()
}

func (o *onFirstRead) Read(p []byte) (int, error) {
	if o.fn != nil {
		o.fn()
		o.fn = nil
	}
	return o.r.Read(p)
}

// temps returns the temporary names of file in dir.
func temps(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for _, name := range list(t, dir) {
		if strings.HasPrefix(name, tempPrefix("file")) {
			out = append(out, name)
		}
	}
	return out
}

func TestWriteTemp(t *testing.T) {
	tests := []struct {
		name string
		// during runs while the temporary file is written.
		during func(t *testing.T, d *Dir, real string)
	}{
		{"a sweep leaves the file being written", func(t *testing.T, d *Dir, real string) {
			if err := d.RemoveLeftovers("file"); err != nil {
				t.Error(err)
			}
			if len(temps(t, real)) != 1 {
				t.Error("the sweep removed the file being written")
			}
		}},
		{"a file a sweep removed before its lock is written again", func(t *testing.T, d *Dir, real string) {
			for _, name := range temps(t, real) {
				if err := os.Remove(filepath.Join(real, name)); err != nil {
					t.Error(err)
				}
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			real := filepath.Join(tree(t), "real")
			d := openDir(t, real)
			r := &onFirstRead{r: strings.NewReader("new content"), fn: func() { tt.during(t, d, real) }}
			tmp, st, err := d.WriteTemp("file", 0o644, r)
			if err != nil {
				t.Fatal(err)
			}
			if st.Size != int64(len("new content")) || st.Nlink != 1 || st.Mode&0o777 != 0o644&^umask() {
				t.Fatalf("status: size %d, %d links, mode %o", st.Size, st.Nlink, st.Mode&0o777)
			}
			if err := tmp.Commit(); err != nil {
				t.Fatal(err)
			}
			if got := resourcetest.ReadFile(t, filepath.Join(real, "file")); got != "new content" {
				t.Fatalf("content %q", got)
			}
			if names := list(t, real); !slices.Equal(names, []string{"file"}) {
				t.Fatalf("left %v", names)
			}
		})
	}
}

// umask returns the process's umask.
func umask() uint32 {
	m := unix.Umask(0)
	unix.Umask(m)
	return uint32(m)
}

// TestCommitStamped: the stamp of a file committed untouched is valid and
// names the file at its new name; one written after its status was taken
// is not.
func TestCommitStamped(t *testing.T) {
	for _, touched := range []bool{false, true} {
		real := filepath.Join(tree(t), "real")
		d := openDir(t, real)
		tmp, st, err := d.WriteTemp("file", 0o644, strings.NewReader("new content"))
		if err != nil {
			t.Fatal(err)
		}
		if touched {
			if _, err := tmp.Write([]byte("!")); err != nil {
				t.Fatal(err)
			}
		}
		stamp, ok, err := tmp.CommitStamped(&st)
		if err != nil {
			t.Fatal(err)
		}
		if !finerStamps(d.fd) {
			t.Skip("this filesystem or kernel gives no fine timestamps")
		}
		if ok == touched {
			t.Fatalf("written after its status: %v; stamp valid: %v", touched, ok)
		}
		now := stat(t, d, "file")
		if !touched && !stamp.Same(&now) {
			t.Fatal("the stamp does not name the file committed")
		}
	}
}

// TestFinerStampsHold checks what the stamps rely on where finerStamps
// says so: a write right after a stat gives the file new times.
func TestFinerStampsHold(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	resourcetest.WriteFile(t, path, "aaaa", 0o644)
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fd := int(f.Fd())
	for i := range 1000 {
		var before, after unix.Stat_t
		if err := unix.Fstat(fd, &before); err != nil {
			t.Fatal(err)
		}
		if i == 0 && !finerStamps(fd) {
			t.Skip("this filesystem or kernel gives no fine timestamps")
		}
		if _, err := unix.Pwrite(fd, []byte("bbbb"), 0); err != nil {
			t.Fatal(err)
		}
		if err := unix.Fstat(fd, &after); err != nil {
			t.Fatal(err)
		}
		if stampOf(&before) == stampOf(&after) {
			t.Fatalf("write %d left the times as they were", i)
		}
	}
}

func TestKernelAtLeast(t *testing.T) {
	for release, want := range map[string]bool{
		"6.18.44-fc-v769": true, "6.13.0": true, "6.13-rc1": true, "7.0.1": true,
		"6.12.9": false, "5.15.0-91-generic": false, "6": false, "x.y": false,
	} {
		if got := kernelAtLeast(release, 6, 13); got != want {
			t.Errorf("kernelAtLeast(%q, 6, 13) = %v, want %v", release, got, want)
		}
	}
}

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
