package memory

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// MinRoom is the least growth of the heap between collections the Pacer
// allows a converged daemon.
const MinRoom = 8 << 20

// Percent is the collector's percentage for a daemon that keeps live
// bytes: room for a quarter of it, at least MinRoom, and at most Go's
// default (100).
func Percent(live uint64) int {
	if live == 0 {
		return 100
	}
	room := max(live/4, MinRoom)
	return int(min(100, room*100/live))
}

// Pacer sets the collector's percentage as loads begin and end, and
// gives back the program's pages once they are over.
//
// Converged, a daemon's heap is mostly what it keeps for good (the
// graph, the engine's state, the watches) and each repair leaves a few
// kilobytes of garbage. Go's default (GOGC 100) collects once the heap
// has doubled, so a daemon that keeps 35 MB (10,000 files) holds up to
// 70 MB. A lower percentage for every daemon was tried and cost small
// daemons CPU: Go's least heap goal is 4 MB times GOGC/100, so at 100
// files GOGC 25 collected after each megabyte of garbage. Between loads
// the Pacer gives a daemon room for a quarter of what it keeps, and never
// less than MinRoom: a small daemon keeps Go's default, a large one
// collects once its heap has grown by a quarter. Loading (the start,
// each reload), which makes garbage many times what it keeps, stays at
// Go's default.
type Pacer struct {
	// off is set when the environment sets the collector (GOGC or
	// GOMEMLIMIT): the runtime is left alone.
	off bool
	// collect is debug.FreeOSMemory; live reads the heap the last
	// collection found live; setPercent is debug.SetGCPercent.
	collect    func()
	live       func() uint64
	setPercent func(int) int
	// trim is TrimProgram.
	trim func() error
	// log hears why the program's pages were not given back.
	log func(error)

	mu sync.Mutex
	// loads counts the loads under way, the start's first.
	loads int
}

// New returns the Pacer of a daemon that starts by loading its manifests;
// log hears why the program's pages could not be given back.
func New(log func(error)) *Pacer {
	return &Pacer{
		off:   collectorSet(),
		loads: 1, collect: debug.FreeOSMemory, live: liveHeap, setPercent: debug.SetGCPercent,
		trim: TrimProgram, log: log,
	}
}

// Loading records that manifests are being loaded again.
func (p *Pacer) Loading() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.loads++
	if p.loads == 1 && !p.off {
		p.setPercent(100)
	}
}

// Loaded records that a load (the start's, at the first convergence) is
// over. The last load over, it collects once to learn what the daemon
// keeps (the last collection may have been in the middle of the load),
// which blocks the caller for that collection, gives the load's garbage
// back to the system at once (rather than over the minutes of the
// runtime's scavenging), and the program's pages. Giving the garbage
// back cost the repairs after it before (cadcf97, reverted): at Go's
// default percentage the heap grew back to twice what the daemon keeps,
// each page faulted in again (at the Pacer's it grows back by a
// quarter), and it ran beside the first repairs (the daemon now calls
// Loaded before it says it converged).
func (p *Pacer) Loaded() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.loads--
	if p.loads != 0 {
		return
	}
	endStart()
	if !p.off {
		p.collect()
		p.setPercent(Percent(p.live()))
	}
	if err := p.trim(); err != nil {
		p.log(err)
	}
}

// Around runs reload as a load: it wraps reload.Options.Around.
func (p *Pacer) Around(around func(func())) func(func()) {
	return func(reload func()) {
		p.Loading()
		defer p.Loaded()
		if around == nil {
			reload()
			return
		}
		around(reload)
	}
}

// collectorSet reports whether the environment sets the collector.
func collectorSet() bool {
	return os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != ""
}

// liveHeap is the heap the last collection marked live.
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
