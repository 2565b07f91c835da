package engine

import (
	"time"

	"github.com/reactive-ccm/ccm/resources"
)

// ContestPolicy decides when a vertex is fighting another program: a
// writer undoing ccm's repairs as soon as they are made, again and again.
// A repair (an apply that changed a vertex found drifted after it had
// converged, whether the re-check after it passed or the other writer
// struck again first) continues the vertex's episode when the drift it
// undid was seen within Gap of the repair before; otherwise it starts a
// new episode and the count starts afresh. More than Limit repairs of one
// episode within Window make the vertex contested: it is then checked
// only once Backoff has passed, doubling up to MaxBackoff with each
// repair the fight forces, and the refreshes its changes owe its
// subscribers are held. It is calm again, and its held refreshes are
// released, once Calm passes without a repair; a check finding it in
// order is not enough, since the echo of ccm's own write and a writer's
// pauses look just like that.
//
// So a program that changes a resource every few seconds or less often
// (an operator's cleanup script, cron) is repaired each time, at once,
// and never backed off; a burst that drifts many vertices at once (rm -rf
// of a directory of 200 managed files) is one repair of each, an episode
// of one, not 200 fights. A writer rewriting a file ten times a second is
// contested within a second.
type ContestPolicy struct {
	Window time.Duration
	Limit  int
	// Gap is the longest time from a repair to the drift undoing it, in
	// one episode; default DefaultContestGap. A Gap as long as Window
	// counts every repair within the window.
	Gap        time.Duration
	Backoff    time.Duration
	MaxBackoff time.Duration
	// Calm defaults to Window.
	Calm time.Duration
}

// DefaultContestGap is ContestPolicy.Gap when unset: a writer undoing a
// repair within a second, again and again, is a fight; one every few
// seconds is not.
const DefaultContestGap = time.Second

// contestState is a vertex's repair history.
type contestState struct {
	// repairs of the current episode within the window, oldest first.
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

// repaired records a repair at now; quick says whether the drift it
// undid was seen within the gap of the repair before, continuing the
// episode; otherwise the count starts afresh. It reports whether the
// vertex just became contested; while contested each repair doubles the
// back-off.
func (c *contestState) repaired(now time.Time, quick bool, p ContestPolicy) (became bool) {
	keep := c.repairs[:0]
	if quick {
		for _, t := range c.repairs {
			if now.Sub(t) < p.Window {
				keep = append(keep, t)
			}
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
// converged to that desired state, whatever the re-check after it found.
// Refreshes of a vertex in order, first convergences and the changes a
// new desired state makes (a reload, a new bundle revision, new data, a
// changed source file), until the vertex has converged to it, are not
// repairs; nor is a run during which a new desired state came, since it
// may have applied it.
func (e *Engine) isRepair(n *node, out resources.Outcome) bool {
	return e.opts.Watch && !e.noop(n) && n.convergedTo == n.runDesired+1 && n.desired == n.runDesired &&
		out.Applied && out.Change.Changed && !out.Before.Desired
}

// desiredChanged records that n's desired state changed without a reload
// (a source it reads changed, as a bundle revision may do): what it
// applies until it has converged to it is the operator's change, not a
// repair, and what the contest rule counted for n is forgotten, so the
// change runs at once, even during a contest's back-off, and refreshes
// the subscribers (with any refresh the contest held). A reload needs
// none of this: a changed vertex is a new one. Callers hold e.mu.
func (e *Engine) desiredChanged(n *node, now time.Time) {
	n.desired++
	if n.contest.contested {
		e.opts.Logger.Info("no longer contested: its desired state changed", "resource", n.v.ID(), "repairs", n.contest.count)
	}
	e.endFight(n, now)
}

// repaired counts a repair of n. The run that makes it contested reports
// it, once, when flush has named the other writer; each repair while
// contested names it again. Callers hold e.mu.
func (e *Engine) repaired(n *node, ev *Event, now time.Time) {
	c := &n.contest
	became := c.repaired(now, e.quickStrike(n, ev.Trigger), e.opts.Contest)
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

// quickStrike reports whether the drift the run of n just repaired was
// seen within the contest gap of n's repair before it: the other writer
// undid that repair as soon as it was made. Drift a poll found may have
// come up to a poll interval before, so the gap is wider by that much.
// Callers hold e.mu.
func (e *Engine) quickStrike(n *node, trig Trigger) bool {
	last := n.contest.last
	if last.IsZero() {
		return false
	}
	gap := e.opts.Contest.Gap
	if trig == TriggerPoll {
		gap += n.pollEvery
	}
	return n.runSeen.Sub(last) <= gap
}

// tryCalm ends n's fight once it went Calm without a repair: its witness
// is closed and, if it was contested, the refreshes it held are released.
// Callers hold e.mu.
func (e *Engine) tryCalm(n *node, now time.Time) {
	c := &n.contest
	if !c.fighting() || now.Before(c.calmAt(e.opts.Contest)) {
		return
	}
	if !c.contested {
		c.closeWitness()
		delete(e.fights, n)
		return
	}
	e.opts.Logger.Info("no longer contested: left alone", "resource", n.v.ID(), "repairs", c.count, "for", e.opts.Contest.Calm)
	e.endFight(n, now)
}

// endFight forgets n's repair history: its witness is closed and, if it
// was contested, it is no longer and the refreshes it held are released.
// Callers hold e.mu.
func (e *Engine) endFight(n *node, now time.Time) {
	c := &n.contest
	c.closeWitness()
	delete(e.fights, n)
	contested, held := c.contested, c.held
	*c = contestState{}
	if !contested {
		return
	}
	e.touch(n)
	e.changed = true
	e.announce(n, now)
	if held {
		e.refreshSubscribers(n)
		for _, s := range n.subs {
			e.schedule(s, now)
		}
	}
}
