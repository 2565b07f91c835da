package inotify_test

import (
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/watchers/inotify"
)

// counter counts notifications and lets a test wait for the next one.
type counter struct {
	n  atomic.Int64
	ch chan struct{}
}

func newCounter() *counter { return &counter{ch: make(chan struct{}, 1<<16)} }

func (c *counter) notify() {
	c.n.Add(1)
	select {
	case c.ch <- struct{}{}:
	default:
	}
}

// drain forgets notifications received so far.
func (c *counter) drain() {
	for {
		select {
		case <-c.ch:
		default:
			return
		}
	}
}

// settle forgets the notifications a step is still producing: one
// change can reach several watches (the parent's and the directory's own).
func (c *counter) settle() {
	time.Sleep(50 * time.Millisecond)
	c.drain()
}

// wait fails the test unless a notification arrives soon.
func (c *counter) wait(t *testing.T, what string) {
	t.Helper()
	select {
	case <-c.ch:
	case <-time.After(3 * time.Second):
		t.Fatalf("no notification after %s", what)
	}
}

// quiet fails the test if a notification arrives soon.
func (c *counter) quiet(t *testing.T, what string) {
	t.Helper()
	select {
	case <-c.ch:
		t.Fatalf("unexpected notification after %s", what)
	case <-time.After(100 * time.Millisecond):
	}
}

func newHub(t *testing.T) *inotify.Hub {
	t.Helper()
	h, err := inotify.New(t.Context(), slog.New(slog.DiscardHandler), func(string, func()) func() {
		t.Fatal("no fallback expected")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func sh(t *testing.T, script string) {
	t.Helper()
	if out, err := exec.Command("/bin/sh", "-c", script).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
}

func TestFileChangesNotify(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "etc", "motd")
	must(t, os.MkdirAll(filepath.Dir(path), 0o755))
	must(t, os.WriteFile(path, []byte("hello\n"), 0o644))
	h := newHub(t)
	c := newCounter()
	defer h.Watch(path, c.notify)()

	steps := []struct {
		name string
		do   func()
	}{
		{"overwrite", func() { must(t, os.WriteFile(path, []byte("tampered\n"), 0o644)) }},
		{"append", func() { sh(t, "echo more >> "+path) }},
		{"chmod", func() { must(t, os.Chmod(path, 0o600)) }},
		{"chown", func() { must(t, os.Chown(path, 1, 1)) }},
		{"delete", func() { must(t, os.Remove(path)) }},
		{"create", func() { must(t, os.WriteFile(path, []byte("back\n"), 0o644)) }},
		{"atomic replace", func() {
			tmp := path + ".tmp"
			must(t, os.WriteFile(tmp, []byte("new\n"), 0o644))
			must(t, os.Rename(tmp, path))
		}},
		{"rename away", func() { must(t, os.Rename(path, path+".old")) }},
	}
	for _, s := range steps {
		c.drain()
		s.do()
		c.wait(t, s.name)
	}
	c.settle()
	must(t, os.WriteFile(filepath.Join(filepath.Dir(path), "unrelated"), []byte("x"), 0o644))
	c.quiet(t, "a write to an unrelated file in the same directory")
}

func TestMissingPathIsSeenWhenItsDirectoriesAppear(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a", "b", "c", "file")
	h := newHub(t)
	c := newCounter()
	defer h.Watch(path, c.notify)()

	sh(t, "mkdir -p "+filepath.Dir(path))
	c.wait(t, "mkdir -p of the missing parents")
	c.drain()
	must(t, os.WriteFile(path, []byte("x"), 0o644))
	c.wait(t, "creating the file under directories that did not exist at registration")
	c.drain()
	must(t, os.Chmod(path, 0o600))
	c.wait(t, "chmod after re-arming to the real parent")
}

func TestRemovedTreeAndRenamedAncestorsAreFollowed(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "srv", "app", "conf", "app.ini")
	must(t, os.MkdirAll(filepath.Dir(path), 0o755))
	must(t, os.WriteFile(path, []byte("x"), 0o644))
	h := newHub(t)
	c := newCounter()
	defer h.Watch(path, c.notify)()

	sh(t, "rm -rf "+filepath.Join(dir, "srv"))
	c.wait(t, "rm -rf of the tree")
	c.drain()
	must(t, os.MkdirAll(filepath.Dir(path), 0o755))
	c.wait(t, "re-creating the tree")
	c.drain()
	must(t, os.WriteFile(path, []byte("y"), 0o644))
	c.wait(t, "writing the file in the re-created tree")

	// An ancestor renamed away: the path no longer exists where it is
	// registered, and writes inside the moved tree are not about it.
	c.drain()
	must(t, os.Rename(filepath.Join(dir, "srv", "app"), filepath.Join(dir, "srv", "moved")))
	c.wait(t, "renaming an ancestor away")
	c.settle()
	must(t, os.WriteFile(filepath.Join(dir, "srv", "moved", "conf", "app.ini"), []byte("z"), 0o644))
	c.quiet(t, "a write inside the renamed-away tree")
	must(t, os.Rename(filepath.Join(dir, "srv", "moved"), filepath.Join(dir, "srv", "app")))
	c.wait(t, "renaming the ancestor back")
	c.drain()
	must(t, os.WriteFile(path, []byte("w"), 0o644))
	c.wait(t, "a write at the registered path after the rename back")
}

func TestSharedDirectoriesAreReferenceCounted(t *testing.T) {
	dir := t.TempDir()
	h := newHub(t)
	var cancels []func()
	for _, n := range []string{"a", "b", "c"} {
		cancels = append(cancels, h.Watch(filepath.Join(dir, n), func() {}))
	}
	before := h.Stats()
	for _, cancel := range cancels {
		cancel()
	}
	if st := h.Stats(); st.Paths != 0 || st.Dirs != 0 {
		t.Fatalf("after cancelling every registration: %+v (before %+v)", st, before)
	}
	if before.Paths != 3 {
		t.Fatalf("stats before = %+v", before)
	}
}

func TestTreeWatchesEveryDirectory(t *testing.T) {
	root := filepath.Join(t.TempDir(), "site")
	h := newHub(t)
	c := newCounter()
	defer h.WatchTree(root, c.notify)()

	must(t, os.MkdirAll(filepath.Join(root, "a", "b"), 0o755))
	c.wait(t, "creating the root")
	c.drain()
	deep := filepath.Join(root, "a", "b", "c")
	must(t, os.MkdirAll(deep, 0o755))
	c.wait(t, "creating a subdirectory")
	// Give the hub a moment to walk the new directory before writing in it.
	time.Sleep(20 * time.Millisecond)
	c.drain()
	must(t, os.WriteFile(filepath.Join(deep, "index.html"), []byte("x"), 0o644))
	c.wait(t, "writing deep in the tree")
	c.drain()
	sh(t, "rm -rf "+filepath.Join(root, "a"))
	c.wait(t, "removing a subtree")
}

func TestOverflowNotifiesEveryRegistration(t *testing.T) {
	dir := t.TempDir()
	h := newHub(t)
	block := make(chan struct{})
	var once sync.Once
	noisy := filepath.Join(dir, "noisy")
	// The first notification blocks the reader so the kernel queue fills.
	defer h.Watch(noisy, func() { once.Do(func() { <-block }) })()
	other := newCounter()
	defer h.Watch(filepath.Join(dir, "quiet"), other.notify)()

	f, err := os.Create(noisy)
	must(t, err)
	defer f.Close()
	limit := 16384
	if b, err := os.ReadFile("/proc/sys/fs/inotify/max_queued_events"); err == nil {
		var n int
		if _, err := fmt.Sscan(string(b), &n); err == nil {
			limit = n
		}
	}
	// The kernel merges identical consecutive events; alternating two
	// kinds keeps every one of them queued. The reader may already hold a
	// large batch in its own buffer, so write well past the limit.
	for i := 0; i < 2*limit; i++ {
		_, err := f.Write([]byte("x"))
		must(t, err)
		must(t, f.Chmod(0o600+os.FileMode(i%2)))
	}
	close(block)
	other.wait(t, "a queue overflow")
	if n := h.Stats().Overflows; n == 0 {
		t.Error("the overflow was not counted")
	}
}

func TestFlushRoutesTheEventsQueuedBeforeIt(t *testing.T) {
	h := newHub(t)
	path := filepath.Join(t.TempDir(), "file")
	c := newCounter()
	defer h.Watch(path, c.notify)()
	for i := range 100 {
		must(t, os.WriteFile(path, []byte{byte(i)}, 0o644))
		before := c.n.Load()
		must(t, os.Chmod(path, 0o600+os.FileMode(i%2)))
		h.Flush()
		if c.n.Load() == before {
			t.Fatalf("write %d: Flush returned before routing the chmod queued before it", i)
		}
	}
}
