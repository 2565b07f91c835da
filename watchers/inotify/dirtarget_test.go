package inotify_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/reactive-ccm/ccm/watchers/inotify"
)

// dirTarget makes dir/parent/managed, a directory, and a file beside it,
// and registers the directory.
func dirTarget(t *testing.T, h *inotify.Hub) (managed, beside string, c *counter) {
	t.Helper()
	parent := filepath.Join(t.TempDir(), "parent")
	managed = filepath.Join(parent, "managed")
	beside = filepath.Join(parent, "beside")
	must(t, os.MkdirAll(managed, 0o755))
	must(t, os.WriteFile(beside, nil, 0o644))
	c = newCounter(barrier(t, h))
	t.Cleanup(h.Watch(managed, c.notify))
	return managed, beside, c
}

// writeBeside writes and chmods the file beside a managed directory and
// makes another: changes that must not wake the hub.
func writeBeside(t *testing.T, beside string) func() {
	return func() {
		must(t, os.WriteFile(beside+".new", []byte("x"), 0o644))
		sh(t, "echo more >> "+beside)
		must(t, os.Chmod(beside, 0o600))
		must(t, os.Chmod(beside, 0o644))
	}
}

func TestWritesBesideAWatchedDirectoryWakeNobody(t *testing.T) {
	h := newHub(t)
	sync := barrier(t, h)
	_, beside, c := dirTarget(t, h)
	if n := eventsDuring(h, sync, writeBeside(t, beside)); n != 0 {
		t.Fatalf("the hub read %d events for writes beside a watched directory, want 0", n)
	}
	if got := c.n.Load(); got != 0 {
		t.Fatalf("%d notifications for the directory", got)
	}
}

func TestWatchedDirectoryChangesNotify(t *testing.T) {
	tests := []struct {
		name string
		do   func(t *testing.T, managed string)
	}{
		{"chmod", func(t *testing.T, managed string) { must(t, os.Chmod(managed, 0o700)) }},
		{"chown", func(t *testing.T, managed string) { must(t, os.Chown(managed, 65534, 65534)) }},
		{"remove", func(t *testing.T, managed string) { must(t, os.Remove(managed)) }},
		{"rename away", func(t *testing.T, managed string) { must(t, os.Rename(managed, managed+".away")) }},
		{"replace by a file", func(t *testing.T, managed string) {
			must(t, os.WriteFile(managed+".new", nil, 0o644))
			must(t, os.Remove(managed))
			must(t, os.Rename(managed+".new", managed))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHub(t)
			managed, _, c := dirTarget(t, h)
			tt.do(t, managed)
			c.wait(t, tt.name)
		})
	}
}

func TestRemadeDirectoryIsWatchedAsADirectoryAgain(t *testing.T) {
	h := newHub(t)
	sync := barrier(t, h)
	managed, beside, c := dirTarget(t, h)
	for _, away := range []string{"renamed", "removed"} {
		if away == "renamed" {
			must(t, os.Rename(managed, managed+".away"))
		} else {
			must(t, os.Remove(managed))
		}
		c.wait(t, "the directory "+away)
		must(t, os.Mkdir(managed, 0o755))
		c.wait(t, "making the "+away+" directory again")
		c.settle()
		must(t, os.Chmod(managed, 0o700))
		c.wait(t, "chmod of the directory made again")
		if n := eventsDuring(h, sync, writeBeside(t, beside)); n != 0 {
			t.Fatalf("after the directory was %s and made again, the hub read %d events for writes beside it, want 0", away, n)
		}
	}
}

func TestFileInPlaceOfAWatchedDirectoryIsWatchedAsAFile(t *testing.T) {
	h := newHub(t)
	managed, _, c := dirTarget(t, h)
	must(t, os.Remove(managed))
	c.wait(t, "removing the directory")
	c.settle()
	must(t, os.WriteFile(managed, nil, 0o644))
	c.wait(t, "creating a file in its place")
	c.settle()
	sh(t, "echo more >> "+managed)
	c.wait(t, "writing that file")
	c.settle()
	must(t, os.Remove(managed))
	must(t, os.Mkdir(managed, 0o755))
	c.wait(t, "making the directory again")
	c.settle()
	must(t, os.Chmod(managed, 0o700))
	c.wait(t, "chmod of the directory made again")
}
