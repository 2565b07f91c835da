package ownership_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/reactive-ccm/ccm/internal/ownership"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// nobody is the unprivileged user the tests hand files to.
const nobody = 65534

func needRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to give files to another user")
	}
}

// tree makes dir/... as setup says: each step a path below base and what
// to make there.
type step struct {
	path string
	// kind: "dir", "file", "link:TARGET", "fifo"
	kind  string
	mode  os.FileMode
	owner int
}

func build(t *testing.T, base string, steps []step) {
	t.Helper()
	for _, s := range steps {
		p := filepath.Join(base, s.path)
		var err error
		switch {
		case s.kind == "dir":
			err = os.Mkdir(p, 0o700)
		case s.kind == "file":
			err = os.WriteFile(p, []byte("content"), 0o600)
		case s.kind == "fifo":
			err = syscall.Mkfifo(p, 0o600)
		case strings.HasPrefix(s.kind, "link:"):
			err = os.Symlink(strings.ReplaceAll(strings.TrimPrefix(s.kind, "link:"), "@", base), p)
		}
		if err == nil && s.mode != 0 {
			// The raw mode: os.Chmod takes the sticky bit as os.ModeSticky.
			err = syscall.Chmod(p, uint32(s.mode))
		}
		if err == nil {
			err = os.Lchown(p, s.owner, s.owner)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

func TestReadFileAppliesTheRule(t *testing.T) {
	needRoot(t)
	tests := []struct {
		name  string
		steps []step
		read  string
		// at is the path at fault, "" when the read succeeds.
		at, why string
	}{
		{"root's file in root's directory", []step{{"d", "dir", 0o755, 0}, {"d/m", "file", 0o644, 0}}, "d/m", "", ""},
		{"root's file in a sticky directory others write", []step{{"tmp", "dir", 0o1777, 0}, {"tmp/m", "file", 0o600, 0}}, "tmp/m", "", ""},
		{"a file another user owns", []step{{"d", "dir", 0o755, 0}, {"d/m", "file", 0o644, nobody}}, "d/m", "d/m", "is owned by uid 65534"},
		{"a file every user may write", []step{{"d", "dir", 0o755, 0}, {"d/m", "file", 0o666, 0}}, "d/m", "d/m", "writable by every user (mode 0666)"},
		{"a file its group may write", []step{{"d", "dir", 0o755, 0}, {"d/m", "file", 0o664, 0}}, "d/m", "d/m", "writable by group 0"},
		{"root's file in a directory another user owns", []step{{"d", "dir", 0o755, nobody}, {"d/m", "file", 0o644, 0}}, "d/m", "d", "is owned by uid 65534"},
		{"root's file in a directory every user may write", []step{{"d", "dir", 0o777, 0}, {"d/m", "file", 0o644, 0}}, "d/m", "d", "writable by every user (mode 0777)"},
		{"root's file two levels under a user's directory", []step{{"u", "dir", 0o755, nobody}, {"u/d", "dir", 0o755, 0}, {"u/d/m", "file", 0o644, 0}}, "u/d/m", "u", "is owned by uid 65534"},
		{"another user's file in a sticky directory", []step{{"tmp", "dir", 0o1777, 0}, {"tmp/m", "file", 0o600, nobody}}, "tmp/m", "tmp/m", "is owned by uid 65534"},
		{"a sticky directory another user owns", []step{{"tmp", "dir", 0o1777, nobody}, {"tmp/m", "file", 0o600, 0}}, "tmp/m", "tmp", "is owned by uid 65534"},
		{"root's link to root's file", []step{{"d", "dir", 0o755, 0}, {"d/m", "file", 0o644, 0}, {"l", "link:d/m", 0, 0}}, "l", "", ""},
		{"another user's link in a sticky directory", []step{{"d", "dir", 0o755, 0}, {"d/m", "file", 0o644, 0}, {"tmp", "dir", 0o1777, 0}, {"tmp/l", "link:@/d/m", 0, nobody}}, "tmp/l", "tmp/l", "is a symlink owned by uid 65534"},
		{"root's link into a user's directory", []step{{"u", "dir", 0o755, nobody}, {"u/m", "file", 0o644, 0}, {"l", "link:@/u/m", 0, 0}}, "l", "u", "is owned by uid 65534"},
		{"root's directory link into a user's directory", []step{{"u", "dir", 0o755, nobody}, {"u/m", "file", 0o644, 0}, {"l", "link:u", 0, 0}}, "l/m", "u", "is owned by uid 65534"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			build(t, base, tt.steps)
			path := filepath.Join(base, tt.read)
			b, err := ownership.ReadFile(path, 100)
			if tt.at == "" {
				if err != nil || string(b) != "content" {
					t.Fatalf("ReadFile = %q, %v; want the content", b, err)
				}
				return
			}
			var ue *ownership.UnsafeError
			if !errors.As(err, &ue) || !errors.Is(err, ownership.ErrUnsafe) {
				t.Fatalf("ReadFile = %q, %v; want an UnsafeError", b, err)
			}
			if want := filepath.Join(base, tt.at); ue.At != want || ue.Path != path || !strings.Contains(ue.Why, tt.why) {
				t.Errorf("refused %s at %s (%s); want at %s, %q", ue.Path, ue.At, ue.Why, want, tt.why)
			}
			if !strings.Contains(err.Error(), "--"+ownership.Flag) {
				t.Errorf("the error does not say how to go on: %v", err)
			}
		})
	}
}

func TestReadFileReadsOnlyBoundedRegularFiles(t *testing.T) {
	base := t.TempDir()
	fifo := filepath.Join(base, "fifo")
	resourcetest.FIFO(t, fifo)
	big := filepath.Join(base, "big")
	if err := os.WriteFile(big, make([]byte, 101), 0o600); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]error{fifo: ownership.ErrNotRegular, "/dev/zero": ownership.ErrNotRegular, base: ownership.ErrNotRegular, big: ownership.ErrTooLarge} {
		if _, err := ownership.ReadFile(path, 100); !errors.Is(err, want) {
			t.Errorf("ReadFile(%s) = %v, want %v", path, err, want)
		}
	}
}

func TestAllowWarnsInsteadOfRefusing(t *testing.T) {
	needRoot(t)
	base := t.TempDir()
	build(t, base, []step{{"u", "dir", 0o777, nobody}, {"u/m", "file", 0o666, nobody}})
	var warned []error
	ownership.Allow(func(e *ownership.UnsafeError) { warned = append(warned, e) })
	defer ownership.Allow(nil)
	if b, err := ownership.ReadFile(base+"/u/m", 100); err != nil || string(b) != "content" {
		t.Fatalf("ReadFile = %q, %v", b, err)
	}
	if len(warned) != 2 || !errors.Is(warned[0], ownership.ErrUnsafe) {
		t.Fatalf("warned %v; want the directory and the file", warned)
	}
	ownership.Allow(nil)
	if _, err := ownership.ReadFile(base+"/u/m", 100); !errors.Is(err, ownership.ErrUnsafe) {
		t.Fatalf("after Allow(nil): %v", err)
	}
}

func TestMkdirAllMakesAndChecksDirectories(t *testing.T) {
	needRoot(t)
	base := t.TempDir()
	build(t, base, []step{{"u", "dir", 0o700, nobody}, {"open", "dir", 0o777, 0}, {"tmp", "dir", 0o1777, 0}})
	d, err := ownership.MkdirAll(base+"/tmp/a/b", 0o700)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	if fi, err := os.Stat(base + "/tmp/a/b"); err != nil || fi.Mode().Perm() != 0o700 || !fi.IsDir() {
		t.Fatalf("made %v, %v", fi, err)
	}
	for _, dir := range []string{base + "/u", base + "/u/x", base + "/open", base + "/tmp"} {
		if d, err := ownership.MkdirAll(dir, 0o700); !errors.Is(err, ownership.ErrUnsafe) {
			d.Close()
			t.Errorf("MkdirAll(%s) = %v, want ErrUnsafe", dir, err)
		}
	}
	if _, err := os.Stat(base + "/u/x"); !os.IsNotExist(err) {
		t.Errorf("a directory was made under the user's: %v", err)
	}
	if d, err := ownership.OpenDir(base + "/missing"); !os.IsNotExist(err) {
		d.Close()
		t.Errorf("OpenDir of a missing directory = %v", err)
	}
}

func TestReadFileInFollowsNothing(t *testing.T) {
	needRoot(t)
	base := t.TempDir()
	build(t, base, []step{{"s", "dir", 0o700, 0}, {"s/ok", "file", 0o600, 0}, {"s/theirs", "file", 0o600, nobody},
		{"s/link", "link:ok", 0, 0}, {"s/zero", "link:/dev/zero", 0, 0}, {"s/fifo", "fifo", 0o600, 0}})
	d, err := ownership.OpenDir(base + "/s")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if b, err := ownership.ReadFileIn(d, "ok", 100); err != nil || string(b) != "content" {
		t.Fatalf("ReadFileIn(ok) = %q, %v", b, err)
	}
	for name, want := range map[string]error{"theirs": ownership.ErrUnsafe, "link": ownership.ErrNotRegular, "zero": ownership.ErrNotRegular,
		"fifo": ownership.ErrNotRegular, "../s/ok": nil, "missing": os.ErrNotExist} {
		_, err := ownership.ReadFileIn(d, name, 100)
		if want == nil && err == nil || want != nil && !errors.Is(err, want) {
			t.Errorf("ReadFileIn(%s) = %v, want %v", name, err, want)
		}
	}
}

// setACL gives uid the permissions perm on path through a POSIX ACL with
// the mask mask, as `setfacl -m u:UID:PERM,m::MASK` does.
func setACL(t *testing.T, path string, uid uint32, perm, mask uint16) {
	t.Helper()
	var b []byte
	le := func(v uint32, n int) {
		for i := 0; i < n; i++ {
			b = append(b, byte(v>>(8*i)))
		}
	}
	le(2, 4) // the version
	for _, e := range []struct {
		tag, perm uint16
		id        uint32
	}{{0x01, 6, 0xffffffff}, {0x02, perm, uid}, {0x04, 4, 0xffffffff}, {0x10, mask, 0xffffffff}, {0x20, 4, 0xffffffff}} {
		le(uint32(e.tag), 2)
		le(uint32(e.perm), 2)
		le(e.id, 4)
	}
	if err := syscall.Setxattr(path, "system.posix_acl_access", b, 0); err != nil {
		t.Skipf("no POSIX ACLs here: %v", err)
	}
}

func TestAnACLThatLetsAnotherUserWriteIsSeen(t *testing.T) {
	needRoot(t)
	base := t.TempDir()
	build(t, base, []step{{"m", "file", 0o644, 0}})
	setACL(t, base+"/m", nobody, 6, 4)
	if _, err := ownership.ReadFile(base+"/m", 100); err != nil {
		t.Fatalf("an ACL whose mask takes write away: %v", err)
	}
	setACL(t, base+"/m", nobody, 6, 6)
	if _, err := ownership.ReadFile(base+"/m", 100); !errors.Is(err, ownership.ErrUnsafe) || !strings.Contains(err.Error(), "writable by group") {
		t.Fatalf("an ACL that lets uid %d write: %v", nobody, err)
	}
}
