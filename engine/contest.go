package engine

import (
	"time"

	"github.com/reactive-ccm/ccm/resources"
)

// ContestPolicy decides when a vertex is fighting another program. Every
// repair counts: an apply that changed a vertex found drifted after it had
// converged, whether the re-check after it passed or the other writer
// struck again first. More than Limit repairs within Window make the
// vertex contested: it is then checked only once Backoff has passed,
// doubling up to MaxBackoff with each repair the fight forces, and the
// refreshes its changes owe its subscribers are held. It is calm again,
// and its held refreshes are released, once Calm passes without a repair;
// a check finding it in order is not enough, since the echo of ccm's own
// write and a slow writer's pauses look just like that.
type ContestPolicy struct {
	Window     time.Duration
	Limit      int
	Backoff    time.Duration
	MaxBackoff time.Duration
	// Calm defaults to Window.
	Calm time.Duration
}

// contestState is a vertex's repair history.
type contestState struct {
	// repairs within the window, oldest first.
	repairs   []time.Time
	contested bool
	// count is the repairs since the vertex became contested, the first
	// Limit+1 included.
	count int
	// backoff is the current back-off step; until is when the vertex may
	// run again.
	backoff time.Duration
	until   time.Time
	// last is the last repair.
	last time.Time
	// held is set when a change while contested owes the subscribers a
	// refresh, released when calm.
	held bool
	// witness watches who changes the vertex's paths while it fights;
	// nil otherwise.
	witness Witness
	// writer names the other writer of a contested vertex once known.
	writer string
}

// fighting reports whether the vertex has a fight to end: a witness armed
// or a contest.
func (c *contestState) fighting() bool { return c.contested || c.witness != nil }

func (c *contestState) waiting(now time.Time) bool { return c.contested && now.Before(c.until) }

// repaired records a repair at now. It reports whether the vertex just
// became contested; while contested each repair doubles the back-off.
func (c *contestState) repaired(now time.Time, p ContestPolicy) (became bool) {
	keep := c.repairs[:0]
	for _, t := range c.repairs {
		if now.Sub(t) < p.Window {
			keep = append(keep, t)
		}
	}
	c.repairs = append(keep, now)
	c.last = now
	switch {
	case c.contested:
		c.count++
		c.backoff = min(2*c.backoff, p.MaxBackoff)
	case len(c.repairs) > p.Limit:
		c.contested, became = true, true
		c.count = len(c.repairs)
		c.backoff = p.Backoff
	default:
		return false
	}
	c.until = now.Add(jitter(c.backoff))
	return became
}

// calmAt is when a fighting vertex is calm if no repair comes first.
func (c *contestState) calmAt(p ContestPolicy) time.Time { return c.last.Add(p.Calm) }

// closeWitness stops watching who changes the vertex.
func (c *contestState) closeWitness() {
	if c.witness != nil {
		c.witness.Close()
		c.witness = nil
	}
}

// isRepair reports whether a run repaired drift: in watch mode, an apply
// that changed a vertex found not in its desired state after it had
// converged in this graph, whatever the re-check after it found. Refreshes
// of a vertex in order and first convergences are not repairs.
func (e *Engine) isRepair(n *node, out resources.Outcome) bool {
	return e.opts.Watch && !e.noop(n) && n.convergedOnce &&
		out.Applied && out.Change.Changed && !out.Before.Desired
}

// repaired counts a repair of n. The run that makes it contested reports
// it, once, when flush has named the other writer; each repair while
// contested names it again. Callers hold e.mu.
func (e *Engine) repaired(n *node, ev *Event, now time.Time) {
	c := &n.contest
	became := c.repaired(now, e.opts.Contest)
	e.armWitness(n)
	switch {
	case became:
		ev.Contested = true
		e.fights[n] = struct{}{}
		e.poke()
		e.naming = append(e.naming, naming{n: n, ev: ev, witness: c.witness, report: true, count: c.count, backoff: c.backoff})
	case c.contested:
		e.opts.Logger.Debug("still contested", "resource", n.v.ID(), "repairs", c.count, "backoff", c.backoff)
		e.naming = append(e.naming, naming{n: n, ev: ev, witness: c.witness})
	}
}

// tryCalm ends n's fight once it went Calm without a repair: its witness
// is closed and, if it was contested, the refreshes it held are released.
// Callers hold e.mu.
func (e *Engine) tryCalm(n *node, now time.Time) {
	c := &n.contest
	if !c.fighting() || now.Before(c.calmAt(e.opts.Contest)) {
		return
	}
	c.closeWitness()
	delete(e.fights, n)
	if !c.contested {
		return
	}
	e.opts.Logger.Info("no longer contested: left alone", "resource", n.v.ID(), "repairs", c.count, "for", e.opts.Contest.Calm)
	held := c.held
	*c = contestState{}
	e.touch(n)
	e.changed = true
	if held {
		e.refreshSubscribers(n)
		for _, s := range n.subs {
			e.schedule(s, now)
		}
	}
}
