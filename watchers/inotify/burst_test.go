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
