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
}

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

// calmAt is when a contested vertex is calm if no repair comes first.
func (c *contestState) calmAt(p ContestPolicy) time.Time { return c.last.Add(p.Calm) }

// calm reports whether a contested vertex went Calm without a repair by
// now.
func (c *contestState) calm(now time.Time, p ContestPolicy) bool {
	return c.contested && !now.Before(c.calmAt(p))
}

// isRepair reports whether a run repaired drift: in watch mode, an apply
// that changed a vertex found not in its desired state after it had
// converged in this graph, whatever the re-check after it found. Refreshes
// of a vertex in order and first convergences are not repairs.
func (e *Engine) isRepair(n *node, out resources.Outcome) bool {
	return e.opts.Watch && !e.noop(n) && n.convergedOnce &&
		out.Applied && out.Change.Changed && !out.Before.Desired
}

// repaired counts a repair of n; the run that makes it contested reports
// it, once. Callers hold e.mu.
func (e *Engine) repaired(n *node, ev *Event, now time.Time) {
	c := &n.contest
	p := e.opts.Contest
	if !c.repaired(now, p) {
		if c.contested {
			e.opts.Logger.Debug("still contested", "resource", n.v.ID(), "repairs", c.count, "backoff", c.backoff)
		}
		return
	}
	ev.Contested = true
	e.contested[n] = struct{}{}
	e.poke()
	e.opts.Logger.Warn("contested: repaired too often; another program is changing it. Backing off and holding its refreshes until it is left alone",
		"resource", n.v.ID(), "repairs", c.count, "window", p.Window, "backoff", c.backoff, "calm_after", p.Calm)
}

// tryCalm ends n's contest once it went Calm without a repair, releasing
// the refreshes it held. Callers hold e.mu.
func (e *Engine) tryCalm(n *node, now time.Time) {
	c := &n.contest
	if !c.calm(now, e.opts.Contest) {
		return
	}
	e.opts.Logger.Info("no longer contested: left alone", "resource", n.v.ID(), "repairs", c.count, "for", e.opts.Contest.Calm)
	held := c.held
	*c = contestState{}
	delete(e.contested, n)
	e.changed = true
	if held {
		e.refreshSubscribers(n)
		for _, s := range n.subs {
			e.schedule(s, now)
		}
	}
}
