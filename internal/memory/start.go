package memory

import (
	"math"
	"runtime"
	"runtime/debug"
	"sync"
)

// StartRoom is how much memory a process may map before its first
// collection (see Start).
const StartRoom = 32 << 20

// start is the collector's setting while a process starts: off until it
// maps StartRoom.
var start struct {
	mu sync.Mutex
	// on is set from Start until the first collection or endStart; gen
	// counts the starts, so a start's cleanup ends no later one.
	on  bool
	gen int
	// setPercent and setLimit are debug.SetGCPercent and
	// debug.SetMemoryLimit.
	setPercent func(int) int
	setLimit   func(int64) int64
}

// Start lets the process run without collecting garbage until it maps
// StartRoom, then at Go's default. A one-shot run of 1,000 files never
// maps that much, and Go's default, collecting each time the heap has
// doubled from 4 MB, collected three or four times while it started,
// loaded and converged: a fifth of its CPU and, on two cores, up to half
// its time (GOGC 100 against 1000: 54 against 40 ms of CPU, 127 against
// 63 ms). Past StartRoom a large run collects as before, so its peak
// stays where it was, and a long-lived client (ccm events) holds no more
// than StartRoom before its first collection. GOGC or GOMEMLIMIT in the
// environment leave the collector alone.
func Start() {
	if !collectorSet() {
		startWith(debug.SetGCPercent, debug.SetMemoryLimit)
	}
}

func startWith(setPercent func(int) int, setLimit func(int64) int64) {
	start.mu.Lock()
	defer start.mu.Unlock()
	start.on = true
	start.gen++
	start.setPercent, start.setLimit = setPercent, setLimit
	start.setPercent(-1)
	start.setLimit(StartRoom)
	// The first collection frees first, whose cleanup ends the start.
	first := &struct{ _ *int }{}
	runtime.AddCleanup(first, endStartOf, start.gen)
}

// endStartOf ends start gen if it is still on.
func endStartOf(gen int) {
	start.mu.Lock()
	defer start.mu.Unlock()
	if start.gen == gen {
		endStartLocked()
	}
}

// endStart puts the collector back at Go's default, once: at the first
// collection, or when a daemon's Pacer takes over.
func endStart() {
	start.mu.Lock()
	defer start.mu.Unlock()
	endStartLocked()
}

func endStartLocked() {
	if !start.on {
		return
	}
	start.on = false
	start.setLimit(math.MaxInt64)
	start.setPercent(100)
}
