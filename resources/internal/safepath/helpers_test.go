package safepath

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"golang.org/x/sys/unix"
)

// bothWays runs fn with openat2 and again with the component walk alone,
// as on kernels without openat2.
func bothWays(t *testing.T, fn func(t *testing.T)) {
	t.Run("openat2", func(t *testing.T) {
		if !haveOpenat2() {
			t.Skip("the kernel has no openat2")
		}
		fn(t)
	})
	t.Run("walk", func(t *testing.T) {
		saved := haveOpenat2
		haveOpenat2 = func() bool { return false }
		t.Cleanup(func() { haveOpenat2 = saved })
		fn(t)
	})
}

// needRoot skips tests that chown or mount.
func needRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root")
	}
}

// nobody is the uid of the links tests plant as another user.
const nobody = 65534

// tree makes dir/real/file holding "secret" and returns dir.
func tree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	mkdir(t, filepath.Join(dir, "real"))
	resourcetest.WriteFile(t, filepath.Join(dir, "real", "file"), "secret", 0o644)
	return dir
}

// linkedTree is tree with two links to dir/real beside it: dir/trusted,
// owned by root, and dir/hostile, owned by nobody.
func linkedTree(t *testing.T) string {
	t.Helper()
	dir := tree(t)
	symlink(t, filepath.Join(dir, "real"), filepath.Join(dir, "trusted"), 0)
	symlink(t, filepath.Join(dir, "real"), filepath.Join(dir, "hostile"), nobody)
	return dir
}

func mkdir(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(path, 0o755); err != nil {
		t.Fatal(err)
	}
}

// symlink makes link point to target, owned by uid.
func symlink(t *testing.T, target, link string, uid int) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Lchown(link, uid, uid); err != nil {
		t.Fatal(err)
	}
}

func chmod(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

// wantErr fails unless err matches target.
func wantErr(t *testing.T, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("error %v, want %v", err, target)
	}
}

// closeDir closes d at the end of the test.
func closeDir(t *testing.T, d *Dir) {
	t.Cleanup(func() {
		if err := d.Close(); err != nil {
			t.Error(err)
		}
	})
}

// openDir opens path with the zero Policy until the end of the test.
func openDir(t *testing.T, path string) *Dir {
	t.Helper()
	d, err := Policy{}.OpenDir(path)
	if err != nil {
		t.Fatal(err)
	}
	closeDir(t, d)
	return d
}

// stat returns the status of name in d, failing the test on error.
func stat(t *testing.T, d *Dir, name string) unix.Stat_t {
	t.Helper()
	st, err := d.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	return st
}
