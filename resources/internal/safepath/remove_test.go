package safepath

import (
	"errors"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

func TestRemoveAll(t *testing.T) {
	bothWays(t, func(t *testing.T) {
		dir := tree(t)
		victim := filepath.Join(dir, "real")
		top := filepath.Join(dir, "top")
		mkdir(t, filepath.Join(top, "a", "b"))
		resourcetest.WriteFile(t, filepath.Join(top, "a", "b", "f"), "x", 0o644)
		symlink(t, victim, filepath.Join(top, "a", "link"), os.Getuid())
		d := openDir(t, dir)
		if err := d.RemoveAll("top"); err != nil {
			t.Fatal(err)
		}
		if resourcetest.Exists(top) || resourcetest.ReadFile(t, filepath.Join(victim, "file")) != "secret" {
			t.Fatal("wrong removal")
		}
		if err := d.RemoveAll("top"); err != nil {
			t.Fatalf("removing what is gone: %v", err)
		}
	})
}

func TestRemoveAllStopsAtMountPoints(t *testing.T) {
	needRoot(t)
	bothWays(t, func(t *testing.T) {
		dir := t.TempDir()
		mnt := filepath.Join(dir, "top", "mnt")
		mkdir(t, mnt)
		if err := unix.Mount("tmpfs", mnt, "tmpfs", 0, "size=1m"); err != nil {
			t.Skipf("cannot mount a tmpfs: %v", err)
		}
		t.Cleanup(func() {
			if err := unix.Unmount(mnt, 0); err != nil {
				t.Error(err)
			}
		})
		resourcetest.WriteFile(t, filepath.Join(mnt, "kept"), "on another filesystem", 0o644)
		resourcetest.WriteFile(t, filepath.Join(dir, "top", "gone"), "x", 0o644)
		d := openDir(t, dir)
		wantErr(t, d.RemoveAll("top"), ErrMountPoint)
		if !resourcetest.Exists(filepath.Join(mnt, "kept")) || resourcetest.Exists(filepath.Join(dir, "top", "gone")) {
			t.Fatal("crossed the mount point, or removed nothing")
		}
	})
}

func TestRemoveAllTooDeep(t *testing.T) {
	dir := t.TempDir()
	deep := filepath.Join(dir, "top")
	d, err := Policy{}.MkdirAll(deep, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	bottom, err := d.MkdirAll(strings.Repeat("d/", MaxDepth+1), 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(bottom.Close(), d.Close()); err != nil {
		t.Fatal(err)
	}
	top := openDir(t, dir)
	wantErr(t, top.RemoveAll("top"), ErrTooDeep)
}

func TestWalk(t *testing.T) {
	bothWays(t, func(t *testing.T) {
		dir := tree(t)
		top := filepath.Join(dir, "top")
		mkdir(t, filepath.Join(top, "a", "b"))
		resourcetest.WriteFile(t, filepath.Join(top, "a", "b", "f"), "x", 0o644)
		resourcetest.WriteFile(t, filepath.Join(top, "g"), "x", 0o644)
		symlink(t, filepath.Join(dir, "real"), filepath.Join(top, "a", "link"), os.Getuid())
		d := openDir(t, top)
		var got []string
		err := d.Walk(func(in *Dir, name, rel string, isDir bool) error {
			if _, err := in.Stat(name); err != nil {
				return err
			}
			if isDir {
				rel += "/"
			}
			got = append(got, rel)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(got)
		if want := []string{"a/", "a/b/", "a/b/f", "a/link", "g"}; !slices.Equal(got, want) {
			t.Fatalf("got %v, want %v", got, want)
		}
	})
}

func TestSubdirs(t *testing.T) {
	bothWays(t, func(t *testing.T) {
		dir := tree(t)
		mkdir(t, filepath.Join(dir, "top", "a"))
		symlink(t, filepath.Join(dir, "real"), filepath.Join(dir, "top", "link"), os.Getuid())
		subs := openDir(t, filepath.Join(dir, "top")).Subdirs()
		t.Cleanup(func() {
			if err := subs.Close(); err != nil {
				t.Error(err)
			}
		})
		a1, base, err := subs.Parent("a/f")
		if err != nil || base != "f" || a1.Path() != filepath.Join(dir, "top", "a") {
			t.Fatalf("%v %q %v", a1, base, err)
		}
		if a2, _, _ := subs.Parent("a/g"); a2 != a1 {
			t.Fatal("opened a again")
		}
		_, _, err = subs.Parent("link/file")
		wantErr(t, err, ErrSymlink)
	})
}
