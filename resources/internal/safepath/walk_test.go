package safepath

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"golang.org/x/sys/unix"
)

func TestOpenParentPlainPath(t *testing.T) {
	bothWays(t, func(t *testing.T) {
		dir := tree(t)
		d, base, err := Policy{}.OpenParent(filepath.Join(dir, "real", "file"))
		if err != nil {
			t.Fatal(err)
		}
		closeDir(t, d)
		if base != "file" || d.Path() != filepath.Join(dir, "real") {
			t.Fatalf("got %s and %q", d.Path(), base)
		}
		if st := stat(t, d, base); st.Size != int64(len("secret")) {
			t.Fatalf("size %d", st.Size)
		}
	})
}

func TestSymlinkOnTheWay(t *testing.T) {
	needRoot(t)
	cases := []struct {
		name string
		// setup plants dir/link pointing at dir/real and returns the
		// policy to open with.
		setup func(t *testing.T, dir string) Policy
		// refused is "" when the link is followed, else a word of the
		// reason.
		refused string
	}{
		{"owned by another user", func(t *testing.T, dir string) Policy {
			symlink(t, filepath.Join(dir, "real"), filepath.Join(dir, "link"), nobody)
			return Policy{}
		}, "owned by uid 65534"},
		{"owned by root in a directory others can write", func(t *testing.T, dir string) Policy {
			symlink(t, filepath.Join(dir, "real"), filepath.Join(dir, "link"), 0)
			chmod(t, dir, 0o777)
			return Policy{}
		}, "writable by others"},
		{"owned by root in a directory another user owns", func(t *testing.T, dir string) Policy {
			symlink(t, filepath.Join(dir, "real"), filepath.Join(dir, "link"), 0)
			if err := os.Chown(dir, nobody, nobody); err != nil {
				t.Fatal(err)
			}
			return Policy{}
		}, "directory is owned by uid 65534"},
		{"owned by root in a root-only directory", func(t *testing.T, dir string) Policy {
			symlink(t, filepath.Join(dir, "real"), filepath.Join(dir, "link"), 0)
			return Policy{}
		}, ""},
		{"owned by root in a sticky directory", func(t *testing.T, dir string) Policy {
			symlink(t, filepath.Join(dir, "real"), filepath.Join(dir, "link"), 0)
			chmod(t, dir, os.ModeSticky|0o777)
			return Policy{}
		}, ""},
		{"relative, trusted", func(t *testing.T, dir string) Policy {
			mkdir(t, filepath.Join(dir, "sub"))
			symlink(t, "sub/../real", filepath.Join(dir, "link"), 0)
			return Policy{}
		}, ""},
		{"owned by another user and allowed", func(t *testing.T, dir string) Policy {
			symlink(t, filepath.Join(dir, "real"), filepath.Join(dir, "link"), nobody)
			p, err := Allow(filepath.Join(dir, "link"))
			if err != nil {
				t.Fatal(err)
			}
			return p
		}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bothWays(t, func(t *testing.T) {
				dir := tree(t)
				p := c.setup(t, dir)
				d, base, err := p.OpenParent(filepath.Join(dir, "link", "file"))
				if c.refused == "" {
					if err != nil {
						t.Fatal(err)
					}
					closeDir(t, d)
					stat(t, d, base)
					return
				}
				wantErr(t, err, ErrSymlink)
				want := "refusing to follow symlink " + filepath.Join(dir, "link") + " -> "
				if msg := err.Error(); !strings.HasPrefix(msg, want) || !strings.Contains(msg, c.refused) {
					t.Fatalf("error %q, want %q... %q", msg, want, c.refused)
				}
			})
		})
	}
}

func TestSymlinkAtTheEnd(t *testing.T) {
	needRoot(t)
	bothWays(t, func(t *testing.T) {
		dir := linkedTree(t)
		d := openDir(t, filepath.Join(dir, "trusted"))
		stat(t, d, "file")
		_, err := Policy{}.OpenDir(filepath.Join(dir, "hostile"))
		wantErr(t, err, ErrSymlink)
	})
}

func TestSymlinkLoop(t *testing.T) {
	bothWays(t, func(t *testing.T) {
		dir := t.TempDir()
		symlink(t, "b", filepath.Join(dir, "a"), os.Getuid())
		symlink(t, "a", filepath.Join(dir, "b"), os.Getuid())
		_, err := Policy{}.OpenDir(filepath.Join(dir, "a"))
		if os.Getuid() == 0 {
			wantErr(t, err, unix.ELOOP)
		} else if err == nil {
			t.Fatal("a loop of links opened")
		}
	})
}

func TestNotADirectoryOnTheWay(t *testing.T) {
	bothWays(t, func(t *testing.T) {
		dir := tree(t)
		_, _, err := Policy{}.OpenParent(filepath.Join(dir, "real", "file", "x"))
		wantErr(t, err, unix.ENOTDIR)
		_, _, err = Policy{}.OpenParent(filepath.Join(dir, "missing", "x"))
		wantErr(t, err, unix.ENOENT)
	})
}

func TestMkdirAll(t *testing.T) {
	needRoot(t)
	bothWays(t, func(t *testing.T) {
		dir := tree(t)
		d, err := Policy{}.MkdirAll(filepath.Join(dir, "a", "b", "c"), 0o755)
		if err != nil {
			t.Fatal(err)
		}
		closeDir(t, d)
		if fi, err := os.Stat(filepath.Join(dir, "a", "b", "c")); err != nil || !fi.IsDir() {
			t.Fatalf("%v %v", fi, err)
		}
		symlink(t, filepath.Join(dir, "real"), filepath.Join(dir, "link"), nobody)
		_, err = Policy{}.MkdirAll(filepath.Join(dir, "link", "new"), 0o755)
		wantErr(t, err, ErrSymlink)
		if resourcetest.Exists(filepath.Join(dir, "real", "new")) {
			t.Fatal("created a directory through a hostile link")
		}
	})
}

func TestBeneathFollowsNoLink(t *testing.T) {
	bothWays(t, func(t *testing.T) {
		dir := tree(t)
		mkdir(t, filepath.Join(dir, "target", "sub"))
		symlink(t, filepath.Join(dir, "real"), filepath.Join(dir, "target", "link"), os.Getuid())
		top := openDir(t, filepath.Join(dir, "target"))
		sub, err := top.OpenDir("sub")
		if err != nil {
			t.Fatal(err)
		}
		closeDir(t, sub)
		_, err = top.OpenDir("link")
		wantErr(t, err, ErrSymlink)
		_, err = top.MkdirAll("link/deeper", 0o755)
		wantErr(t, err, ErrSymlink)
		made, err := top.MkdirAll("new/deeper", 0o755)
		if err != nil {
			t.Fatal(err)
		}
		closeDir(t, made)
		if made.Path() != filepath.Join(dir, "target", "new", "deeper") {
			t.Fatal(made.Path())
		}
		if resourcetest.Exists(filepath.Join(dir, "real", "deeper")) {
			t.Fatal("created a directory through a link")
		}
	})
}

func TestAllowTakesCleanAbsolutePaths(t *testing.T) {
	for _, bad := range []string{"relative", "/a/../b", "/a/"} {
		if _, err := Allow(bad); err == nil {
			t.Errorf("%q allowed", bad)
		}
	}
}

func TestStat(t *testing.T) {
	needRoot(t)
	bothWays(t, func(t *testing.T) {
		dir := linkedTree(t)
		symlink(t, "file", filepath.Join(dir, "real", "link"), nobody)
		for _, tc := range []struct {
			path string
			read bool
			mode uint32
			open bool
			err  error
		}{
			{filepath.Join(dir, "real", "file"), true, unix.S_IFREG, true, nil},
			{filepath.Join(dir, "real", "file"), false, unix.S_IFREG, false, nil},
			{filepath.Join(dir, "trusted", "file"), true, unix.S_IFREG, true, nil},
			{filepath.Join(dir, "real", "link"), true, unix.S_IFLNK, false, nil},
			{filepath.Join(dir, "real"), true, unix.S_IFDIR, false, nil},
			{filepath.Join(dir, "hostile", "file"), true, 0, false, ErrSymlink},
			{filepath.Join(dir, "real", "missing"), true, 0, false, unix.ENOENT},
			{filepath.Join(dir, "real", "file", "below"), false, 0, false, unix.ENOENT},
		} {
			st, f, err := Policy{}.Stat(tc.path, tc.read)
			if tc.err != nil {
				wantErr(t, err, tc.err)
				continue
			}
			if err != nil || st.Mode&unix.S_IFMT != tc.mode || (f != nil) != tc.open {
				t.Fatalf("%s: mode %o, open %v, %v", tc.path, st.Mode&unix.S_IFMT, f != nil, err)
			}
			if f != nil {
				if b, err := io.ReadAll(f); err != nil || string(b) != "secret" {
					t.Fatalf("%s: read %q %v", tc.path, b, err)
				}
				if err := f.Close(); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
}
