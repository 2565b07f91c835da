package engine

import "time"

// Witness tells who changes a resource's paths, for as long as it is
// open (Watchers.Writers).
type Witness interface {
	// Writer describes the program other than ccm that last changed one
	// of the paths ("pid 1234 (sed -i …) uid 0"), or returns "" when it
	// cannot say. It may read /proc for milliseconds: the engine calls it
	// without its lock held.
	Writer() string
	// Close stops watching.
	Close()
}

// UnknownWriter names the other writer of a contested resource when it
// could not be named.
const UnknownWriter = "unknown"

// naming is a contested vertex's other writer to be named by flush,
// outside e.mu, before the event of the repair is emitted.
type naming struct {
	n       *node
	ev      *Event
	witness Witness
	// report is set on the repair that made the vertex contested: the
	// warning is logged once the writer is named. count and backoff are
	// for it.
	report  bool
	count   int
	backoff time.Duration
}

// armWitness starts watching who changes n's paths at its second repair
// of an episode (ContestPolicy): one repair is drift, two undone as soon
// as made may be a fight. Nothing is watched for a vertex that is not
// fighting. Callers hold e.mu.
func (e *Engine) armWitness(n *node) {
	c := &n.contest
	if c.witness != nil || len(c.repairs) < 2 || len(n.paths) == 0 || e.opts.Watchers.Writers == nil {
		return
	}
	c.witness = e.opts.Watchers.Writers(n.paths)
	e.fights[n] = struct{}{}
	e.poke()
}

// nameWriters names the other writer of each vertex in names, on its
// event, in its standing and in settled (a state about to be handed
// out), and logs the contests they report. Callers hold e.emitMu, not
// e.mu.
func (e *Engine) nameWriters(names []naming, settled *State) {
	for _, nm := range names {
		writer := UnknownWriter
		if nm.witness != nil {
			if w := nm.witness.Writer(); w != "" {
				writer = w
			}
		}
		nm.ev.Writer = writer
		id := nm.n.v.ID()
		e.mu.Lock()
		if c := &nm.n.contest; c.contested && c.witness == nm.witness {
			c.writer = writer
		}
		e.mu.Unlock()
		if settled != nil {
			if _, ok := settled.Writers[id]; ok {
				settled.Writers[id] = writer
			}
		}
		if nm.report {
			p := e.opts.Contest
			e.opts.Logger.Warn("contested: repaired too often; another program is changing it. Backing off and holding its refreshes until it is left alone",
				"resource", id, "writer", writer, "repairs", nm.count, "window", p.Window, "backoff", nm.backoff, "calm_after", p.Calm)
		}
	}
}
