package inotify_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// A burst of deletions while Flush runs, as when the engine repairs
// during an operator's rm loop, notifies every deleted path. Long names
// make the burst span several reads of the kernel's queue: Flush used to
// route all but its last read under later events' names (issue 22).
func TestFlushDuringABurstNotifiesEveryPath(t *testing.T) {
	dir := t.TempDir()
	h := newHub(t)
	sync := barrier(t, h)
	const files = 1000
	paths := make([]string, files)
	notified := make([]atomic.Int64, files)
	for i := range paths {
		paths[i] = filepath.Join(dir, fmt.Sprintf("%04d", i)+strings.Repeat("x", 200))
		i := i
		defer h.Watch(paths[i], func() { notified[i].Add(1) })()
	}
	for round := range 5 {
		for i := range paths {
			must(t, os.WriteFile(paths[i], nil, 0o644))
		}
		sync()
		for i := range notified {
			notified[i].Store(0)
		}
		flushing(h, func() {
			for _, p := range paths {
				must(t, os.Remove(p))
			}
		})
		sync()
		var missed []string
		for i := range notified {
			if notified[i].Load() == 0 {
				missed = append(missed, filepath.Base(paths[i])[:4])
			}
		}
		if len(missed) > 0 {
			t.Fatalf("round %d: %d of %d deletions notified nobody: %v", round, len(missed), files, missed)
		}
	}
}

// flushing runs do while another goroutine calls h.Flush over and over.
func flushing(h interface{ Flush() }, do func()) {
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
				h.Flush()
			}
		}
	}()
	do()
	close(stop)
	wg.Wait()
}

// A directory that appears is news to the paths waiting for it even when
// another path found it first and watches it already: a path armed while
// the directory was missing watches only the directory above, and the
// directory's creation is its one chance to look again. The oracle lost
// whole directories of files this way, when ccm's own MkdirAll made a
// directory before its creation was routed.
func TestADirectoryWatchedBeforeItsCreationIsRoutedStillWakesItsWaiters(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	h := newHub(t)
	sync := barrier(t, h)
	waiting := newCounter(sync)
	defer h.Watch(filepath.Join(sub, "waiting"), waiting.notify)()

	// Hold the reader in a notification, so the creation below stays
	// queued while another path is armed under it.
	hold := filepath.Join(t.TempDir(), "hold")
	must(t, os.WriteFile(hold, nil, 0o644))
	held, release := make(chan struct{}), make(chan struct{})
	var once atomic.Bool
	defer h.Watch(hold, func() {
		if once.CompareAndSwap(false, true) {
			close(held)
			<-release
		}
	})()
	must(t, os.Chmod(hold, 0o600))
	<-held
	must(t, os.Mkdir(sub, 0o755))
	first := h.Watch(filepath.Join(sub, "first"), func() {})
	close(release)

	// Once the path that found the directory first is gone, only the
	// waiting path's own watches can see its creation.
	sync()
	first()
	before := waiting.n.Load()
	must(t, os.WriteFile(filepath.Join(sub, "waiting"), nil, 0o644))
	sync()
	if waiting.n.Load() == before {
		t.Fatal("creating a path whose directory appeared while it waited notified nobody")
	}
}
