package safepath

import (
	"encoding/binary"
	"errors"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"golang.org/x/sys/unix"
)

// TestNamesThatAreNotOneComponent: a Dir method acts on one name in its
// directory; anything else is ErrBadName, naming the path.
func TestNamesThatAreNotOneComponent(t *testing.T) {
	dir := tree(t)
	d := openDir(t, filepath.Join(dir, "real"))
	for _, name := range []string{"", ".", "..", "../real/file", "a/b"} {
		t.Run(name, func(t *testing.T) {
			_, err := d.Open(name, unix.O_RDONLY)
			wantErr(t, err, ErrBadName)
			wantErr(t, d.Rename("file", name), ErrBadName)
			wantErr(t, d.Rename(name, "file"), ErrBadName)
			wantErr(t, d.SetLinkOwner(name, 0, 0), ErrBadName)
		})
	}
	if got := resourcetest.ReadFile(t, filepath.Join(dir, "real", "file")); got != "secret" {
		t.Fatalf("the file holds %q after the refused renames", got)
	}
	for _, path := range []string{"/", "/a/", "relative"} {
		_, _, err := Policy{}.OpenParent(path)
		wantErr(t, err, ErrBadName)
	}
	_, err := Policy{}.OpenDir("relative/dir")
	if err == nil || err.Error() != "open relative/dir: path is not absolute" {
		t.Fatalf("error %v, want the path refused as relative", err)
	}
}

func TestPaths(t *testing.T) {
	d, base, err := Policy{}.OpenParent("/tmp")
	if err != nil {
		t.Fatal(err)
	}
	closeDir(t, d)
	if d.Path() != "/" || base != "tmp" || d.Join(base) != "/tmp" || d.Join(".") != "/" || d.Join("") != "/" {
		t.Fatalf("parent of /tmp: %q and %q, joined %q", d.Path(), base, d.Join(base))
	}
	for path, want := range map[string]string{"/a": "/", "/a/b": "/a", "/a/b/c": "/a/b"} {
		if got := parentOf(path); got != want {
			t.Errorf("parentOf(%q) = %q, want %q", path, got, want)
		}
	}
	if got := components("//a//b/./c/"); !slices.Equal(got, []string{"a", "b", ".", "c"}) {
		t.Errorf("components = %q", got)
	}
	var none *Dir
	if err := none.Close(); err != nil {
		t.Errorf("closing a nil Dir: %v", err)
	}
	if err := d.Close(); err != nil || d.Close() != nil {
		t.Errorf("closing twice: %v", err)
	}
}

// TestSetAttrsRefusesOtherKinds: SetAttrs changes a regular file or a
// directory; a FIFO is refused, and a symlink at the name is neither
// followed nor changed.
func TestSetAttrsRefusesOtherKinds(t *testing.T) {
	needRoot(t)
	dir := tree(t)
	resourcetest.FIFO(t, filepath.Join(dir, "fifo"))
	symlink(t, "real/file", filepath.Join(dir, "link"), 0)
	mkdir(t, filepath.Join(dir, "sub"))
	d := openDir(t, dir)
	if err := d.SetAttrs("fifo", 0, 0, 0o600); err == nil || !strings.Contains(err.Error(), "not a regular file or directory") {
		t.Errorf("a FIFO: %v", err)
	}
	wantErr(t, d.SetAttrs("link", nobody, nobody, 0o666), unix.ELOOP)
	if st := stat(t, openDir(t, filepath.Join(dir, "real")), "file"); st.Uid != 0 || st.Mode&0o777 != 0o644 {
		t.Errorf("the link's target changed: uid %d mode %o", st.Uid, st.Mode&0o777)
	}
	if err := d.SetAttrs("sub", nobody, nobody, 0o710); err != nil {
		t.Fatal(err)
	}
	if st := stat(t, d, "sub"); st.Uid != nobody || st.Gid != nobody || st.Mode&0o7777 != 0o710 {
		t.Errorf("the directory is %d:%d %o", st.Uid, st.Gid, st.Mode&0o7777)
	}
	err := d.SetLinkOwner("sub", nobody, nobody)
	if err == nil || !strings.HasSuffix(err.Error(), "/sub: not a symlink") {
		t.Errorf("SetLinkOwner of a directory: %v", err)
	}
}

// TestHops: a walk follows at most 40 links, as the kernel does, and
// reads a link's target whatever its length.
func TestHops(t *testing.T) {
	needRoot(t)
	bothWays(t, func(t *testing.T) {
		dir := tree(t)
		// l0 -> l1 -> ... -> l40 -> real: 41 links from l0, 40 from l1.
		for i := range 41 {
			target := "l" + string(rune('0'+(i+1)/10)) + string(rune('0'+(i+1)%10))
			if i == 40 {
				target = "real"
			}
			symlink(t, target, filepath.Join(dir, "l"+string(rune('0'+i/10))+string(rune('0'+i%10))), 0)
		}
		f, _, err := Policy{}.OpenRegular(filepath.Join(dir, "l01", "file"))
		if err != nil {
			t.Fatalf("40 links: %v", err)
		}
		f.Close()
		_, _, err = Policy{}.OpenRegular(filepath.Join(dir, "l00", "file"))
		wantErr(t, err, unix.ELOOP)
		long := strings.Repeat("./", 300) + "real"
		symlink(t, long, filepath.Join(dir, "long"), 0)
		b, err := Policy{}.ReadFile(filepath.Join(dir, "long", "file"), 100)
		if err != nil || string(b) != "secret" {
			t.Fatalf("through a link of %d bytes: %q, %v", len(long), b, err)
		}
	})
}

func TestBeneathRefusesDotDot(t *testing.T) {
	bothWays(t, func(t *testing.T) {
		dir := tree(t)
		mkdir(t, filepath.Join(dir, "top", "sub"))
		top := openDir(t, filepath.Join(dir, "top"))
		for _, rel := range []string{"..", "sub/../../real", "../top"} {
			if d, err := top.OpenDir(rel); err == nil {
				d.Close()
				t.Errorf("%q opened from %s", rel, top.Path())
			}
		}
		if _, err := top.MkdirAll("../made", 0o755); err == nil || resourcetest.Exists(filepath.Join(dir, "made")) {
			t.Errorf("made a directory above: %v", err)
		}
	})
}

// TestStatSpecialFiles: Stat with read opens regular files only; a FIFO
// or a socket is looked at, never opened (nor waited on).
func TestStatSpecialFiles(t *testing.T) {
	bothWays(t, func(t *testing.T) {
		dir := tree(t)
		resourcetest.FIFO(t, filepath.Join(dir, "fifo"))
		l, err := net.Listen("unix", filepath.Join(dir, "sock"))
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		for name, mode := range map[string]uint32{"fifo": unix.S_IFIFO, "sock": unix.S_IFSOCK} {
			st, f, err := Policy{}.Stat(filepath.Join(dir, name), true)
			if err != nil || f != nil || st.Mode&unix.S_IFMT != mode {
				t.Errorf("%s: mode %o, opened %v, %v", name, st.Mode&unix.S_IFMT, f != nil, err)
			}
		}
	})
}

func TestExists(t *testing.T) {
	needRoot(t)
	bothWays(t, func(t *testing.T) {
		dir := linkedTree(t)
		symlink(t, "nowhere", filepath.Join(dir, "dangling"), 0)
		tests := []struct {
			path string
			want bool
			err  error
		}{
			{"/", true, nil},
			{filepath.Join(dir, "real", "file"), true, nil},
			{filepath.Join(dir, "dangling"), true, nil},
			{filepath.Join(dir, "hostile"), true, nil},
			{filepath.Join(dir, "missing"), false, nil},
			{filepath.Join(dir, "missing", "below"), false, nil},
			{filepath.Join(dir, "real", "file", "below"), false, nil},
			{filepath.Join(dir, "hostile", "file"), false, ErrSymlink},
		}
		for _, tt := range tests {
			got, err := Policy{}.Exists(tt.path)
			if got != tt.want || !errors.Is(err, tt.err) || (err == nil) != (tt.err == nil) {
				t.Errorf("Exists(%s) = %v, %v; want %v, %v", tt.path, got, err, tt.want, tt.err)
			}
		}
	})
}

// dirent is one getdents64 record of name, padded to reclen (0: the
// least, rounded up to 8 bytes as the kernel does).
func dirent(name string, typ uint8, reclen int) []byte {
	if reclen == 0 {
		reclen = (19 + len(name) + 1 + 7) &^ 7
	}
	b := make([]byte, max(reclen, 19+len(name)))
	binary.NativeEndian.PutUint16(b[16:18], uint16(reclen))
	b[18] = typ
	copy(b[19:], name)
	return b[:max(reclen, 19)]
}

func TestParseDirents(t *testing.T) {
	cat := func(bs ...[]byte) []byte { return slices.Concat(bs...) }
	tests := []struct {
		name string
		buf  []byte
		want []entry
	}{
		{"dot and dot-dot left out", cat(dirent(".", unix.DT_DIR, 0), dirent("..", unix.DT_DIR, 0), dirent("a", unix.DT_REG, 0)),
			[]entry{{"a", unix.DT_REG}}},
		{"types kept, unknown included", cat(dirent("dir", unix.DT_DIR, 0), dirent("link", unix.DT_LNK, 0), dirent("x", unix.DT_UNKNOWN, 0)),
			[]entry{{"dir", unix.DT_DIR}, {"link", unix.DT_LNK}, {"x", unix.DT_UNKNOWN}}},
		{"a name filling its record", dirent("abcde", unix.DT_REG, 24), []entry{{"abcde", unix.DT_REG}}},
		{"a record shorter than its header ends the buffer", cat(dirent("a", unix.DT_REG, 0), dirent("b", unix.DT_REG, 18), dirent("c", unix.DT_REG, 0)),
			[]entry{{"a", unix.DT_REG}}},
		{"a record beyond the buffer ends it", cat(dirent("a", unix.DT_REG, 0), dirent("b", unix.DT_REG, 0)[:20]),
			[]entry{{"a", unix.DT_REG}}},
		{"a buffer shorter than a header", make([]byte, 18), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := parseDirents(tt.buf, nil); !slices.Equal(got, tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// TestIsDirAsksWhenTheListingDoesNot: on a filesystem that lists no
// types, a name's kind is looked up, a vanished name being no directory.
func TestIsDirAsksWhenTheListingDoesNot(t *testing.T) {
	dir := tree(t)
	symlink(t, "real", filepath.Join(dir, "link"), os.Getuid())
	d := openDir(t, dir)
	for name, want := range map[string]bool{"real": true, "link": false, "gone": false} {
		got, err := d.isDir(entry{name: name, typ: unix.DT_UNKNOWN})
		if got != want || err != nil {
			t.Errorf("isDir(%s) = %v, %v; want %v", name, got, err, want)
		}
	}
	if got, _ := d.isDir(entry{name: "real", typ: unix.DT_REG}); got {
		t.Error("the listing's type was not believed")
	}
}
