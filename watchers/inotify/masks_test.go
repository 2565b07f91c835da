package inotify_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/reactive-ccm/ccm/watchers/inotify"
)

// sentinel registers a file of its own and returns touch, which changes
// that file's mode (exactly one event) and waits for its notification:
// every event queued before it has then been read.
func sentinel(t *testing.T, h *inotify.Hub) (touch func()) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "sentinel")
	must(t, os.WriteFile(path, nil, 0o644))
	c := newCounter(nil)
	t.Cleanup(h.Watch(path, c.notify))
	mode := os.FileMode(0o644)
	return func() {
		t.Helper()
		mode ^= 0o040
		must(t, os.Chmod(path, mode))
		c.wait(t, "changing the sentinel's mode")
	}
}

// eventsDuring returns how many events the hub read while do ran, not
// counting the barrier's two.
func eventsDuring(h *inotify.Hub, sync, do func()) uint64 {
	before := h.Stats().Events
	do()
	sync()
	return h.Stats().Events - before - 2
}

// tree creates dir/a/b and returns dir and the path dir/a/b/file.
func tree(t *testing.T) (dir, path string) {
	t.Helper()
	dir = t.TempDir()
	path = filepath.Join(dir, "a", "b", "file")
	must(t, os.MkdirAll(filepath.Dir(path), 0o755))
	return dir, path
}

func TestActivityInAncestorsWakesNobody(t *testing.T) {
	dir, path := tree(t)
	h := newHub(t)
	sync := barrier(t, h)
	c := newCounter(sync)
	defer h.Watch(path, c.notify)()

	ancestors := []struct{ name, dir string }{
		{"directory above the head's parent", dir},
		{"parent of the head", filepath.Join(dir, "a")},
	}
	for _, anc := range ancestors {
		t.Run(anc.name, func(t *testing.T) {
			other := filepath.Join(anc.dir, "other")
			n := eventsDuring(h, sync, func() {
				must(t, os.WriteFile(other, []byte("x"), 0o644))
				sh(t, "echo more >> "+other)
				must(t, os.Chmod(other, 0o600))
				must(t, os.Rename(other, other+".moved"))
				must(t, os.Remove(other+".moved"))
				must(t, os.Mkdir(other, 0o755))
				must(t, os.Remove(other))
			})
			if n != 0 {
				t.Fatalf("the hub read %d events caused by unrelated changes in %s, want 0", n, anc.dir)
			}
			if got := c.n.Load(); got != 0 {
				t.Fatalf("%d notifications for %s", got, path)
			}
		})
	}
}

func TestAncestorChangesAreSeen(t *testing.T) {
	tests := []struct {
		name string
		// do changes a directory above dir/a/b/file.
		do func(t *testing.T, dir string)
	}{
		{"rename", func(t *testing.T, dir string) {
			must(t, os.Rename(filepath.Join(dir, "a"), filepath.Join(dir, "moved")))
		}},
		{"delete", func(t *testing.T, dir string) { sh(t, "rm -rf "+filepath.Join(dir, "a")) }},
		{"replace the head", func(t *testing.T, dir string) {
			// os.Rename refuses to replace a directory; rename(2) replaces
			// an empty one, and only the replaced directory hears of it.
			must(t, os.Mkdir(filepath.Join(dir, "new"), 0o755))
			must(t, syscall.Rename(filepath.Join(dir, "new"), filepath.Join(dir, "a", "b")))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, path := tree(t)
			h := newHub(t)
			c := newCounter(barrier(t, h))
			defer h.Watch(path, c.notify)()
			tt.do(t, dir)
			c.wait(t, tt.name)
			must(t, os.MkdirAll(filepath.Dir(path), 0o755))
			c.settle()
			must(t, os.WriteFile(path, nil, 0o644))
			c.wait(t, "writing the file under the new ancestors")
		})
	}
}

func TestReplacedSymlinkAncestorIsFollowed(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"v1/conf", "v2/conf"} {
		must(t, os.MkdirAll(filepath.Join(dir, d), 0o755))
	}
	link := filepath.Join(dir, "current")
	must(t, os.Symlink("v1", link))
	path := filepath.Join(link, "conf", "app.ini")
	h := newHub(t)
	c := newCounter(barrier(t, h))
	defer h.Watch(path, c.notify)()

	must(t, os.WriteFile(filepath.Join(dir, "v1", "conf", "app.ini"), nil, 0o644))
	c.wait(t, "creating the file through the symlink's target")
	// Re-point the symlink atomically, as deployment tools do.
	must(t, os.Symlink("v2", link+".new"))
	must(t, os.Rename(link+".new", link))
	c.wait(t, "re-pointing the symlinked ancestor")
	c.settle()
	must(t, os.WriteFile(filepath.Join(dir, "v2", "conf", "app.ini"), nil, 0o644))
	c.wait(t, "creating the file in the new target")
	c.settle()
	must(t, os.WriteFile(filepath.Join(dir, "v1", "conf", "app.ini"), []byte("old"), 0o644))
	c.quiet(t, "a write in the old target")
}

func TestSharedDirectoryNarrowsWhenItsHeadUserGoes(t *testing.T) {
	dir := t.TempDir()
	shared := filepath.Join(dir, "shared")
	deep := filepath.Join(shared, "sub", "file")
	must(t, os.MkdirAll(filepath.Dir(deep), 0o755))
	h := newHub(t)
	sync := barrier(t, h)
	deepC := newCounter(sync)
	defer h.Watch(deep, deepC.notify)()
	// shared is the head of this path and an ancestor of deep.
	cancelHead := h.Watch(filepath.Join(shared, "file"), func() {})

	unrelated := func() { must(t, os.WriteFile(filepath.Join(shared, "unrelated"), []byte("x"), 0o644)) }
	if n := eventsDuring(h, sync, unrelated); n == 0 {
		t.Fatal("no event for a write in a head directory")
	}
	cancelHead()
	if n := eventsDuring(h, sync, unrelated); n != 0 {
		t.Fatalf("%d events for a write in a directory that is only an ancestor now, want 0", n)
	}
	if st := h.Stats(); st.Paths != 2 {
		t.Fatalf("stats = %+v", st)
	}

	deepC.settle()
	must(t, os.WriteFile(deep, nil, 0o644))
	deepC.wait(t, "creating the deep file")
	deepC.settle()
	must(t, os.Rename(shared, shared+".moved"))
	deepC.wait(t, "renaming the narrowed ancestor")
}
