package engine

import (
	"time"

	"github.com/reactive-ccm/ccm/engine/daemon/status"
	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/resources"
)

// phase is where a vertex stands since it last ran.
type phase int

const (
	// pending: never run in this graph.
	pending phase = iota
	// converged: its last run succeeded (or it was skipped by control).
	converged
	// failed: its last run failed.
	failed
)

// node is the engine's runtime state for one vertex. Every field is
// guarded by Engine.mu. The groups it embeds are declared beside the code
// that uses them.
type node struct {
	v *graph.Vertex
	links

	// life is where the vertex stands in the scheduler: fresh, idle,
	// dirty, queued, running, ... (see life); it changes only through
	// life.move. trigger says why it was first marked since its last run.
	life    life
	trigger Trigger
	// since is when the vertex last became dirty, to measure how long a
	// repair took from the event; seen is since on the engine's clock:
	// when the drift a repair undoes was seen, for the contest rule.
	since, seen time.Time
	// phase is what its last run found.
	phase phase
	// refresh is a pending refresh from a subscribed vertex that changed;
	// refreshing is set while a run consumes it: it is still owed (and
	// kept on disk) until that run succeeds.
	refresh, refreshing bool
	// successor is the vertex replacing this one after a reload; it waits
	// until this one stops running. predecessor is the vertex this one
	// replaces, while it still runs.
	successor, predecessor *node
	// desired counts the new desired states that reached the vertex in
	// this graph without a reload (a source it reads changed).
	// convergedTo is runDesired+1 of its last successful run, 0 before
	// the first: only an apply of a desired state the vertex had
	// converged to is a repair.
	desired, convergedTo int
	retry                retryState
	contest              contestState
	// commitGroups is set when the vertex's resource joins commit groups.
	commitGroups bool
	// queueIndex is the node's index in the work queue's ready heap.
	queueIndex int

	current
	outcome
	healthState
	undoState
	watchState
	counted
}

// links are a vertex's place in the graph.
type links struct {
	// index is the vertex's place in the graph, for State's lists; pos
	// its place in the topological order: ready vertices run in that
	// order.
	index, pos int
	parents    []*node
	children   []*node
	subs       []*node
	// after are the vertices written before this one that it waits for,
	// whatever their outcome; before are those that wait for it.
	after, before []*node
	// afterSeen counts the leading vertices of after found finished since
	// the vertex last became dirty, so a vertex written after thousands
	// does not look at each of them again every time one finishes.
	afterSeen int
}

// current is what the run under way started from.
type current struct {
	// runSince, runSeen and runDesired are since, seen and desired when
	// the run started.
	runSince, runSeen time.Time
	runDesired        int
	// parentChanged is set when a parent applied a change during the run,
	// which a failure of that run may not have seen.
	parentChanged bool
	// nudged is set when an event that brings a retry forward (hastens)
	// marked the vertex during the run, before its apply: if the run
	// fails, its next attempt comes no later than the first step of the
	// back-off. writing is set once the apply started: events from then
	// on may be its own echo, and nudge nothing.
	nudged, writing bool
}

// outcome is what the vertex's runs left to report.
type outcome struct {
	// ran is set once the vertex ran in this graph; its first run is
	// always reported.
	ran bool
	// lastError is the error last reported, so a failure repeating the
	// same way in watch mode is reported once; errorText is the message
	// of the failure it stands in, as reported (redacted), for status.
	lastError, errorText string
	// wouldChange is set in noop when the last run would have changed
	// something; its children then see a host noop did not prepare.
	wouldChange bool
	// unprepared names, in noop, a vertex this one waits for (directly or
	// through others) that would have changed; "" when none.
	unprepared string
	// lastChange is the last change applied, for status.
	lastChange *status.Change
	// drift is what a paused vertex would repair, reported once per
	// distinct drift.
	drift []resources.Difference
	// skipped is set while the last run was skipped by control: the
	// resource is not managed on this host.
	skipped bool
	// told is what Options.Announce was last told of the vertex.
	told told
}

// takeHealthPlan says which checks the coming run owes and clears the
// due ones. Every check runs in a one-shot run, at a vertex's first run,
// and while it is failing or unhealthy; otherwise the ones that are due,
// and all of them after an apply (decided once the apply happened).
func (n *node) takeHealthPlan(watch bool) healthPlan {
	if len(n.v.Health) == 0 {
		return healthPlan{}
	}
	p := healthPlan{all: !watch || n.phase != converged || n.unhealthy, due: n.healthDue}
	n.healthDue = nil
	return p
}

// recordHealth keeps the results of the checks a run ran, by check.
func (n *node) recordHealth(ev *Event) {
	if len(ev.healthIdx) == 0 {
		return
	}
	if n.health == nil {
		n.health = make([]resources.HealthResult, len(n.v.Health))
	}
	for k, i := range ev.healthIdx {
		n.health[i] = ev.HealthChecks[k]
	}
}

// healthNews reports whether a successful run's event is worth emitting:
// a periodic check that changed nothing is reported only when the result
// differs from the one last reported.
func (n *node) healthNews(ev *Event, out resources.Outcome) bool {
	if len(ev.HealthChecks) == 0 {
		return true
	}
	key := healthKey(n.health)
	quiet := ev.Trigger == TriggerHealth && !out.Applied && key == n.healthReported
	n.healthReported = key
	return !quiet
}

// markDirty records that the vertex must be checked. The first trigger
// since the last run is kept: it is the cause. Startup and reload win
// over anything that came first: a vertex's first run in a graph is
// theirs, even when its watch fired while it was being armed and a worker
// was free to run it at once.
func (n *node) markDirty(t Trigger, now time.Time) {
	ev := mark
	if t == TriggerStartup || t == TriggerReload {
		ev = introduce
	}
	was := n.life
	if n.life.move(ev) == was && !was.marked() {
		// Fresh, so dropped until introduced; or gone.
		return
	}
	// A changed source is a new desired state and wins over drift seen
	// first: its change is the one to judge, and to roll back.
	if was.marked() && ev == mark && t != TriggerSource {
		return
	}
	n.trigger = t
	n.since, n.seen = time.Now(), now
	n.afterSeen = 0
}

// parentsConverged reports whether every parent is clean and converged, so
// the vertex may run; blockedBy lists failed (or blocked) ancestors' ids.
func (n *node) parentsConverged() bool {
	for _, p := range n.parents {
		if p.life != idle || p.phase != converged {
			return false
		}
	}
	return true
}

// failedParents lists the parents that failed or are themselves blocked.
func (n *node) failedParents() []string {
	var out []string
	for _, p := range n.parents {
		if p.phase == failed || p.life == blocked {
			out = append(out, p.v.ID())
		}
	}
	return out
}

// unpreparedBy returns a vertex n waits for that would have changed in
// noop, itself or through one it waits for, or "".
func (n *node) unpreparedBy() string {
	for _, list := range [2][]*node{n.parents, n.after} {
		for _, p := range list {
			switch {
			case p.wouldChange:
				return p.v.ID()
			case p.unprepared != "":
				return p.unprepared
			}
		}
	}
	return ""
}

// runnable reports whether the vertex may be handed to a worker at now.
func (n *node) runnable(now time.Time) bool {
	return n.dueBarOrder(now) && n.afterFinished(now)
}

// dueBarOrder reports whether the vertex may run at now but for the
// vertices written before it.
func (n *node) dueBarOrder(now time.Time) bool {
	return (n.life == dirty || n.life == blocked) && !n.probing &&
		(n.predecessor == nil || !n.predecessor.life.busy()) &&
		!n.waiting(now) && n.parentsConverged()
}

// afterFinished reports whether every vertex written before n that it
// waits for has finished: none runs or is about to. One that failed,
// is blocked or waits on a back-off does not hold n back, so order never
// blocks; and a lone repair, whose predecessors are all clean, runs at
// once.
func (n *node) afterFinished(now time.Time) bool {
	for ; n.afterSeen < len(n.after); n.afterSeen++ {
		if n.after[n.afterSeen].pending(now) {
			return false
		}
	}
	return true
}

// pending reports whether the vertex runs or will run without a further
// event: dirty, and neither blocked nor waiting on a back-off.
func (n *node) pending(now time.Time) bool {
	return n.life == queued || n.life.busy() || (n.life == dirty && !n.waiting(now))
}

// waiting reports whether a retry or contest back-off holds the vertex
// back at now.
func (n *node) waiting(now time.Time) bool {
	return n.retry.waiting(now) || n.contest.waiting(now)
}
