package ownership_test

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/iotest"

	"github.com/reactive-ccm/ccm/internal/ownership"
)

// TestWalkResolvesLinksAndRefusesWhatCannotBeWalked: the walk follows
// trusted links, relative and absolute, through ".." too; what it cannot
// resolve is an error naming the path as reached, never a read of
// something else.
func TestWalkResolvesLinksAndRefusesWhatCannotBeWalked(t *testing.T) {
	base := t.TempDir()
	steps := []step{{"d", "dir", 0o755, 0}, {"d/m", "file", 0o644, 0}, {"up", "link:d/../d/m", 0, 0}, {"d/rel", "link:../d/m", 0, 0},
		{"abs", "link:@/d/m", 0, 0}, {"loop1", "link:loop2", 0, 0}, {"loop2", "link:loop1", 0, 0}, {"dangling", "link:nowhere", 0, 0},
		{"via", "link:d", 0, 0}}
	// A chain of 40 links is as far as the kernel follows; 41 is a loop.
	for i := range 40 {
		steps = append(steps, step{fmt.Sprintf("c%d", i), fmt.Sprintf("link:c%d", i+1), 0, 0})
	}
	steps = append(steps, step{"c40", "link:d/m", 0, 0})
	build(t, base, steps)
	for _, tc := range []struct {
		read string
		// want is the content read, or the error's text with base as @.
		want string
		is   error
	}{
		{"up", "content", nil},
		{"d/rel", "content", nil},
		{"abs", "content", nil},
		{"via/m", "content", nil},
		{"via/../d/m", "content", nil},
		{"c1", "content", nil},
		{"c0", "open @/c40: too many levels of symbolic links", syscall.ELOOP},
		{"loop1", "too many levels of symbolic links", syscall.ELOOP},
		{"dangling", "open @/nowhere: no such file or directory", fs.ErrNotExist},
		{"d/m/x", "open @/d/m: not a directory", syscall.ENOTDIR},
		{"d/missing/x", "open @/d/missing: no such file or directory", fs.ErrNotExist},
	} {
		t.Run(tc.read, func(t *testing.T) {
			b, err := ownership.ReadFile(filepath.Join(base, tc.read), 100)
			got := string(b)
			if err != nil {
				got = strings.ReplaceAll(err.Error(), base, "@")
			}
			if !strings.Contains(got, tc.want) || (tc.is != nil && !errors.Is(err, tc.is)) {
				t.Fatalf("ReadFile = %q, want %q (%v)", got, tc.want, tc.is)
			}
		})
	}
}

// TestReadLimits: a file of exactly max bytes is read, one byte more is
// refused with the limit in the message.
func TestReadLimits(t *testing.T) {
	base := t.TempDir()
	for size, want := range map[int]string{0: "", 100: "", 101: "more than 100 bytes"} {
		p := filepath.Join(base, fmt.Sprint(size))
		if err := os.WriteFile(p, make([]byte, size), 0o600); err != nil {
			t.Fatal(err)
		}
		b, err := ownership.ReadFile(p, 100)
		switch {
		case want == "" && (err != nil || len(b) != size):
			t.Errorf("%d bytes: read %d, %v", size, len(b), err)
		case want != "" && (!errors.Is(err, ownership.ErrTooLarge) || !strings.Contains(err.Error(), want)):
			t.Errorf("%d bytes: %v, want %q", size, err, want)
		}
	}
}

// TestReadAtMostCountsWhatItReads: the limit holds for what is read, not
// only for the size a stat saw, since a file may grow meanwhile; the
// error names the file and the limit, and a failed read is its own error.
func TestReadAtMostCountsWhatItReads(t *testing.T) {
	broken := errors.New("input/output error")
	for _, c := range []struct {
		name string
		r    io.Reader
		want error
		msg  string
	}{
		{"the limit", strings.NewReader(strings.Repeat("x", 100)), nil, ""},
		{"a byte past it", strings.NewReader(strings.Repeat("x", 101)), ownership.ErrTooLarge, "read /etc/grown: file too large: more than 100 bytes"},
		{"a failed read", iotest.ErrReader(broken), broken, "input/output error"},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, err := ownership.ReadAtMost(c.r, "/etc/grown", 100)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if !errors.Is(err, c.want) || got != c.msg {
				t.Fatalf("err = %v, want %q", err, c.msg)
			}
			if c.want == nil && len(b) != 100 {
				t.Fatalf("read %d bytes, want 100", len(b))
			}
		})
	}
}

// TestReadFileInTakesOneName: a name with a slash, "." or ".." is
// refused before anything is opened.
func TestReadFileInTakesOneName(t *testing.T) {
	d, err := ownership.OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, name := range []string{"a/b", ".", "..", "/etc/passwd", ""} {
		if _, err := ownership.ReadFileIn(d, name, 100); err == nil || !strings.Contains(err.Error(), "is not a single path component") {
			t.Errorf("ReadFileIn(%q) = %v", name, err)
		}
	}
}

// TestOpenDirSaysWhatIsThere: a directory asked for that is something
// else is named for what it is.
func TestOpenDirSaysWhatIsThere(t *testing.T) {
	base := t.TempDir()
	build(t, base, []step{{"f", "file", 0o600, 0}, {"p", "fifo", 0o600, 0}, {"l", "link:f", 0, 0}})
	for name, want := range map[string]string{"f": "it is a regular file", "p": "it is a FIFO", "l": "it is a regular file"} {
		d, err := ownership.OpenDir(filepath.Join(base, name))
		if err == nil {
			d.Close()
		}
		if !errors.Is(err, syscall.ENOTDIR) || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("OpenDir(%s) = %v, want %q", name, err, want)
		}
	}
	if _, err := ownership.MkdirAll(filepath.Join(base, "new"), 0); !errors.Is(err, syscall.EINVAL) {
		t.Errorf("MkdirAll without a mode = %v", err)
	}
	if _, err := ownership.MkdirAll(filepath.Join(base, "f", "sub"), 0o700); !errors.Is(err, syscall.ENOTDIR) {
		t.Errorf("MkdirAll under a file = %v", err)
	}
}

// TestUnsafeErrorText: the refusal names what was asked for when the
// fault is elsewhere on the way, then what is wrong, then what to do.
func TestUnsafeErrorText(t *testing.T) {
	for _, tc := range []struct {
		err  ownership.UnsafeError
		want string
	}{
		{ownership.UnsafeError{Path: "/srv/m.yaml", At: "/srv/m.yaml", Why: "is owned by uid 1000"},
			"unsafe ownership: /srv/m.yaml is owned by uid 1000; whoever can change it"},
		{ownership.UnsafeError{Path: "/srv/m.yaml", At: "/srv", Why: "is writable by every user (mode 0777)"},
			"unsafe ownership: /srv/m.yaml: /srv is writable by every user (mode 0777); whoever can change it"},
	} {
		got := tc.err.Error()
		if !strings.HasPrefix(got, tc.want) || !strings.HasSuffix(got, "or pass --"+ownership.Flag+" to use it anyway") || !errors.Is(&tc.err, ownership.ErrUnsafe) {
			t.Errorf("%s, want it to start %q", got, tc.want)
		}
	}
	if got := ownership.UserName(0); got != "uid 0 (root)" {
		t.Errorf("UserName(0) = %q", got)
	}
	if got := ownership.UserName(4000000); got != "uid 4000000" {
		t.Errorf("UserName of a user without a name = %q", got)
	}
}

// TestAllowWarnsAtEachFault: under --allow-unsafe-ownership every fault
// on the way is warned of once, where it is, and the read goes on.
func TestAllowWarnsAtEachFault(t *testing.T) {
	needRoot(t)
	base := t.TempDir()
	build(t, base, []step{{"u", "dir", 0o755, nobody}, {"u/w", "dir", 0o777, 0}, {"u/w/m", "file", 0o644, 0},
		{"l", "link:@/u/w/m", 0, nobody}, {"t", "dir", 0o1777, 0}, {"t/m", "file", 0o666, nobody}})
	for _, tc := range []struct {
		read string
		at   []string
	}{
		{"u/w/m", []string{"u", "u/w"}},
		{"l", []string{"l", "u", "u/w"}},
		{"t/m", []string{"t/m"}},
	} {
		t.Run(tc.read, func(t *testing.T) {
			var at []string
			ownership.Allow(func(e *ownership.UnsafeError) { at = append(at, strings.TrimPrefix(e.At, base+"/")) })
			defer ownership.Allow(nil)
			b, err := ownership.ReadFile(filepath.Join(base, tc.read), 100)
			if err != nil || string(b) != "content" || strings.Join(at, " ") != strings.Join(tc.at, " ") {
				t.Fatalf("read %q, %v; warned at %q, want %q", b, err, at, tc.at)
			}
		})
	}
}

// TestMkdirAllModes: what MkdirAll makes takes the mode less the umask,
// what exists keeps its own; a relative path is the working directory's
// and a trusted link to a directory is followed.
func TestMkdirAllModes(t *testing.T) {
	base := t.TempDir()
	build(t, base, []step{{"old", "dir", 0o755, 0}, {"link", "link:old", 0, 0}})
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	for _, tc := range []struct {
		path  string
		modes map[string]os.FileMode
	}{
		{"old/a/b", map[string]os.FileMode{"old": 0o755, "old/a": 0o700, "old/a/b": 0o700}},
		{"link/c", map[string]os.FileMode{"old/c": 0o700}},
	} {
		d, err := ownership.MkdirAll(filepath.Join(base, tc.path), 0o701)
		if err != nil {
			t.Fatalf("MkdirAll(%s): %v", tc.path, err)
		}
		d.Close()
		for p, want := range tc.modes {
			if fi, err := os.Stat(filepath.Join(base, p)); err != nil || fi.Mode().Perm() != want {
				t.Errorf("after MkdirAll(%s): %s is %v, %v; want %04o", tc.path, p, fi.Mode().Perm(), err, want)
			}
		}
	}
	t.Chdir(base)
	d, err := ownership.OpenDir("old/a")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d.Name() != filepath.Join(base, "old/a") {
		t.Errorf("a relative directory opened as %s", d.Name())
	}
}
