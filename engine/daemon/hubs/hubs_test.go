package hubs_test

import (
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine/daemon/hubs"
)

func notified(t *testing.T, c <-chan struct{}) {
	t.Helper()
	select {
	case <-c:
	case <-time.After(time.Minute):
		t.Fatal("no notification")
	}
}

// TestWatchFileAndTreeByInotify: ccm's own inputs are watched by inotify
// when it works, a file and every file under a tree.
func TestWatchFileAndTreeByInotify(t *testing.T) {
	h := hubs.Open(t.Context(), slog.New(slog.DiscardHandler), 0, time.Hour)
	if w := h.Watchers(); w.Paths == nil || w.Trees == nil || w.Flush == nil {
		t.Skip("inotify unavailable here")
	}
	dir := t.TempDir()
	file, tree := filepath.Join(dir, "manifest.yaml"), filepath.Join(dir, "facts.d")
	if err := os.Mkdir(tree, 0o755); err != nil {
		t.Fatal(err)
	}
	fc, tc := make(chan struct{}, 10), make(chan struct{}, 10)
	defer h.WatchFile(file, func() { fc <- struct{}{} })()
	defer h.WatchTree(tree, func() { tc <- struct{}{} })()
	if err := os.WriteFile(file, []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	notified(t, fc)
	if err := os.WriteFile(filepath.Join(tree, "x.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	notified(t, tc)
	if watches, _, _ := h.Counts(); watches == 0 {
		t.Fatal("inotify counts no watch")
	}
}

// TestPollEveryPollsEverything: with --poll every watch is polled at its
// interval, and the engine gets no path source.
func TestPollEveryPollsEverything(t *testing.T) {
	h := hubs.Open(t.Context(), slog.New(slog.DiscardHandler), 10*time.Millisecond, time.Hour)
	if w := h.Watchers(); w.Paths != nil || w.Trees != nil || w.Poll == nil || h.Interval != 10*time.Millisecond {
		t.Fatalf("watchers %+v, interval %v", w, h.Interval)
	}
	c, tc := make(chan struct{}, 10), make(chan struct{}, 10)
	defer h.WatchFile(filepath.Join(t.TempDir(), "m.yaml"), func() { c <- struct{}{} })()
	notified(t, c)
	defer h.WatchTree(t.TempDir(), func() { tc <- struct{}{} })()
	notified(t, tc)
	if watches, polled, overflows := h.Counts(); watches != 0 || polled != 2 || overflows != 0 {
		t.Fatalf("counts %d watches, %d polled, %d overflows; want the file and the tree polled, nothing watched", watches, polled, overflows)
	}
}
