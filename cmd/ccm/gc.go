package main

import (
	"os"
	"runtime/debug"
	"sync"
)

// convergedGC is the garbage collector's percentage (GOGC) of a watching
// daemon between loads: it collects once the heap has grown by a quarter.
const convergedGC = 25

// daemonGC is the garbage collection of a watching daemon. Converged,
// its heap is mostly what it keeps for good (the graph, the engine's
// state, the watches) and each repair leaves a few kilobytes of garbage:
// Go's default, collecting once the heap has doubled, lets resident
// memory grow by as much as the daemon keeps over thousands of repairs
// (at 10,000 files, from 62 to 85 MB in 6,000). Between loads it
// collects at convergedGC, a collection every couple of thousand repairs
// there; loading manifests, which makes garbage many times what it
// keeps, at Go's default, so a start or a reload costs no more CPU.
// GOGC or GOMEMLIMIT in the environment leaves the runtime's settings
// alone.
type daemonGC struct {
	// off is set when the environment sets the collector.
	off bool

	mu sync.Mutex
	// loads counts the loads under way, the start's first.
	loads int
	// setPercent is debug.SetGCPercent.
	setPercent func(int) int
}

func newDaemonGC() *daemonGC {
	return &daemonGC{
		off:   os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "",
		loads: 1, setPercent: debug.SetGCPercent,
	}
}

// loading records that manifests are being loaded again.
func (d *daemonGC) loading() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.loads++
	if d.loads == 1 && !d.off {
		d.setPercent(100)
	}
}

// loaded records that a load (the start's, at the first convergence)
// is over.
func (d *daemonGC) loaded() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.loads--
	if d.loads == 0 && !d.off {
		d.setPercent(convergedGC)
	}
}

// load runs a load of manifests after the start's (a reload) between
// loading and loaded.
func (d *daemonGC) load(f func()) {
	d.loading()
	defer d.loaded()
	f()
}
