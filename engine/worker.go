package engine

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/reactive-ccm/ccm/engine/daemon/status"
	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/commit"
)

// worker takes ready vertices until the engine stops: one at a time, or
// the members of a group (followers, commitFollowers).
func (e *Engine) worker(ctx context.Context) {
	for {
		e.mu.Lock()
		n := e.next()
		if n == nil {
			e.mu.Unlock()
			return
		}
		group := []*groupRun{{n: n, run: e.take(n)}}
		group = append(group, e.followers(group[0])...)
		group = append(group, e.commitFollowers(group)...)
		e.mu.Unlock()

		e.convergeAll(ctx, group)

		e.mu.Lock()
		for _, g := range group {
			g.ev.Paused = g.run.paused
			e.finish(g.n, g.ev, g.out, g.err, g.run.refresh)
		}
		e.commitGroupDone(group)
		e.checkIdle()
		e.mu.Unlock()
		e.flush()
	}
}

// next waits for the work queue to hand out a vertex, and returns it
// started; nil once the engine stops. Callers hold e.mu.
func (e *Engine) next() *node {
	for !e.stopping {
		if n := e.queue.next(); n != nil {
			return n
		}
		e.cond.Wait()
	}
	return nil
}

// take decides the run of n, which the work queue just started. Callers
// hold e.mu.
func (e *Engine) take(n *node) run {
	e.touch(n)
	n.runSince, n.runSeen, n.runDesired = n.since, n.seen, n.desired
	n.parentChanged, n.nudged, n.writing = false, false, false
	// A paused vertex is only looked at: its refresh (and any
	// rollback) waits for resume.
	paused := e.pauseOf(n, e.opts.Clock.Now()) != nil
	trig, refresh := n.trigger, n.refresh && !paused
	plan := n.takeHealthPlan(e.opts.Watch)
	var undo undoPlan
	if !paused {
		undo = n.takeUndoPlan(trig)
		n.refresh, n.refreshing = false, refresh
	}
	if e.opts.Started != nil {
		e.opts.Started(n.v.ID())
	}
	return run{trig: trig, refresh: refresh, health: plan, undo: undo, noop: e.noop(n) || paused, paused: paused}
}

// run is what a worker decided, under e.mu, about one run of a vertex.
type run struct {
	trig    Trigger
	refresh bool
	health  healthPlan
	undo    undoPlan
	// noop changes nothing: --noop, or the vertex is paused.
	noop   bool
	paused bool
	// group, when set, makes the run's apply part of its group's one
	// ApplyGroup call, as member slot.
	group *batch
	slot  int
	// commit, when set, is the commit group the run's writes are made
	// durable with.
	commit *commit.Group
}

// converge runs one cycle of n, then the health checks it owes, and
// describes it as an event. Panics in resource code become errors at this
// boundary.
func (e *Engine) converge(ctx context.Context, n *node, r run) (ev *Event, out resources.Outcome, err error) {
	ev = newEvent(n, r.trig, r.noop)
	start := time.Now()
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic in %s: %v\n%s", n.v.ID(), p, debug.Stack())
		}
		e.describe(n, ev, start, out, err)
	}()
	out, err = e.cycle(ctx, n, r, ev)
	return ev, out, err
}

// describe completes the event of a run of n that started at start with
// what it found and did.
func (e *Engine) describe(n *node, ev *Event, start time.Time, out resources.Outcome, err error) {
	ev.Timestamp = time.Now()
	ev.Duration = ev.Timestamp.Sub(start)
	if !out.Before.Desired {
		ev.Changes = e.changes(out.Before.Differences)
	}
	if s := n.v.Secrets; s != nil {
		defer redact(ev, s, out)
	}
	if err != nil {
		// As upstream: a failed run reports no final state and no
		// change, whatever it did on the way.
		ev.Failed = true
		ev.Error = []string{err.Error()}
		if n.v.Secrets == nil {
			// A sensitive resource hides these and more, as redacted.
			ev.Error[0] = n.v.Templated.Redact(ev.Error[0])
		}
		return
	}
	ev.FinalEnsure = out.After.Ensure
	ev.Changed = out.Change.Changed
	ev.Refreshed = out.Change.Refreshed
	ev.NoopMessage = out.Change.NoopMessage
	if !ev.Skipped {
		ev.state(out.After.Desired)
	}
}

// cycle runs what a run of n does: nothing when its control says so, the
// read of a pending child manifest, only the health checks, the restore
// of a held or rolled back vertex, or a check and apply (in its group, if
// it has one) followed by the health checks it owes.
func (e *Engine) cycle(ctx context.Context, n *node, r run, ev *Event) (resources.Outcome, error) {
	if c := n.v.Control; c != nil {
		manage, err := c(ctx)
		if err != nil || !manage {
			ev.Skipped = err == nil
			return resources.Outcome{}, err
		}
	}
	switch {
	case n.v.Pending != nil:
		return resources.Outcome{}, e.expand(ctx, n, r.trig)
	case e.monitorOnly(n):
		ev.HealthCheckOnly = true
		return resources.Outcome{}, e.runHealth(ctx, n, healthPlan{all: true}, ev)
	case r.undo.restore:
		return e.restore(ctx, n, r.undo, ev)
	}
	cycle := resources.Cycle{Refresh: r.refresh, Noop: r.noop}
	if flush := e.opts.Watchers.Flush; e.opts.Watch && flush != nil {
		cycle.AfterApply = func() { e.settleEcho(n, flush) }
	}
	if r.undo.keep {
		cycle.BeforeApply = e.keepBeforeApply(n, r.undo.undo, ev)
	}
	if e.opts.Watch {
		cycle.BeforeApply = e.applying(n, cycle.BeforeApply)
	}
	d, from := e.deadline(n.v)
	b := bounded{n.v.Resource, d, from, n.v.Type}
	var res resources.Resource = b
	if r.group != nil {
		res = r.group.member(r.slot, b)
	}
	out, err := resources.ConvergeCycle(ctx, res, cycle)
	return out, e.checkHealth(ctx, n, r, ev, out, err)
}

// checkHealth runs the health checks a converge cycle of n owes, given its
// outcome and error, and returns the run's error.
func (e *Engine) checkHealth(ctx context.Context, n *node, r run, ev *Event, out resources.Outcome, err error) error {
	if len(n.v.Health) == 0 {
		return err
	}
	if err != nil {
		// A subscriber judging a change says whether it broke it even
		// when it failed to take it (a service that no longer starts).
		if r.undo.judging {
			err = errors.Join(err, e.runHealth(ctx, n, healthPlan{all: true}, ev))
		}
		return err
	}
	// A noop that would change something says nothing about the health
	// of what it did not change.
	if r.noop && out.Change.Changed {
		return nil
	}
	plan := r.health
	if out.Applied {
		plan.all = true
	}
	if plan.any() {
		return e.runHealth(ctx, n, plan, ev)
	}
	return nil
}

// settleEcho routes the events queued so far and forgets the drift they
// marked n with during its run: the check that follows sees what they
// were about, ccm's own write above all, so they ask for no further run.
// A refresh or any other cause keeps n dirty.
func (e *Engine) settleEcho(n *node, flush func()) {
	flush()
	e.mu.Lock()
	defer e.mu.Unlock()
	if n.life == rerun && isDrift(n.trigger) && !n.refresh {
		n.life.move(settle)
		e.touch(n)
	}
}

// changes copies what a check found different for an event, without the
// diffs unless Options.Diff asks for them.
func (e *Engine) changes(diffs []resources.Difference) []resources.Difference {
	out := slices.Clone(diffs)
	if !e.opts.Diff {
		for i := range out {
			out[i].Diff = ""
		}
	}
	return out
}

// pausedRun records a run of a paused vertex, which changed nothing. It
// reports whether the run is worth an event: drift that differs from the
// drift last reported.
func (e *Engine) pausedRun(n *node, ev *Event, out resources.Outcome) bool {
	n.phase = converged
	n.lastError = ""
	n.retry.reset()
	if !out.Change.Changed {
		n.drift = nil
		return false
	}
	seen := out.Before.Reason() == resources.Status{Differences: n.drift}.Reason()
	n.drift = withoutDiffs(ev.Changes)
	return !seen
}

// withoutDiffs copies differences for status, which keeps no diffs.
func withoutDiffs(diffs []resources.Difference) []resources.Difference {
	out := slices.Clone(diffs)
	for i := range out {
		out[i].Diff = ""
	}
	return out
}

// isDrift reports whether a trigger means the host changed under us, as
// opposed to a change we were asked to make.
func isDrift(t Trigger) bool {
	return t == TriggerDrift || t == TriggerPoll || t == TriggerRecheck
}

// finish records the result of a run of n, queues its event (a failure
// repeating the same way in watch mode is reported once) and schedules
// what it unblocks; events it causes, such as blocked children, queue
// after it. Callers hold e.mu.
func (e *Engine) finish(n *node, ev *Event, out resources.Outcome, err error, refresh bool) {
	e.queue.done(n)
	n.refreshing = false
	defer e.pokeForCalm(n)
	if refresh {
		e.pendingChanged = true
	}
	now := e.opts.Clock.Now()
	if n.life == removed {
		// A reload replaced n while it ran: its successor may start.
		if s := n.successor; s != nil {
			s.predecessor = nil
			e.schedule(s, now)
		}
		return
	}
	e.touch(n)
	before := e.standingOf(n, now, false)
	n.recordHealth(ev)
	// A paused run changed nothing: it is no repair, whatever it found.
	if !ev.Paused && e.isRepair(n, out) {
		e.repaired(n, ev, now)
	}
	notable := e.record(n, ev, out, err, refresh, now)
	e.settleUndo(n, ev, out, err, refresh, !n.ran, now)
	n.skipped = err == nil && ev.Skipped
	after := e.standingOf(n, now, false)
	e.announce(n, now)
	e.report(n, ev, out, notable, before, after)
	if out.Applied || after != before {
		e.changed = true
	}
	if n.life == dirty {
		e.schedule(n, now)
	}
	if err == nil && out.Applied && out.Change.Changed && !e.opts.Noop {
		retryNow(n.children, now)
	}
	e.scheduleAll(n.children, now)
	e.scheduleAll(n.before, now)
}

// pokeForCalm wakes the timer loop, which judges a fighting vertex's
// calm only while it is idle, when the run of n that just ended may make
// it calm before the loop next wakes. A vertex repaired again calms later
// than the fights the loop already waits for: waking the loop after each
// of its repairs was a goroutine hand-off per repair for nothing.
// Callers hold e.mu.
func (e *Engine) pokeForCalm(n *node) {
	if _, ok := e.fights[n]; ok && n.contest.calmAt(e.opts.Contest).Before(e.wakeAt) {
		e.poke()
	}
}

// record keeps the outcome of a run of n in n and reports whether its
// event is worth emitting as far as the outcome goes. Callers hold e.mu.
func (e *Engine) record(n *node, ev *Event, out resources.Outcome, err error, refresh bool, now time.Time) bool {
	if e.noop(n) {
		n.unprepared = n.unpreparedBy()
	}
	switch {
	case err != nil && n.unprepared != "":
		// The failure may only mean noop did not make the change this
		// resource depends on (an archive not extracted, a directory not
		// created, a file an earlier exec writes); it is not a prediction
		// of a real run.
		ev.Failed, ev.Skipped, ev.Unchecked = false, true, true
		ev.Error = []string{fmt.Sprintf("not checked: depends on %s, which noop did not change (%s)", n.unprepared, strings.Join(ev.Error, "; "))}
		n.phase = converged
		return true
	case err != nil:
		return e.failed(n, err, strings.Join(ev.Error, "; "), refresh, now)
	case ev.Paused:
		return e.pausedRun(n, ev, out)
	}
	e.succeeded(n, ev, out, now)
	// Health results are news when they changed since last reported.
	healthChanged := len(ev.HealthChecks) > 0 && healthKey(n.health) != n.healthReported
	return n.healthNews(ev, out) && (ev.Changed || ev.Skipped || healthChanged)
}

// report sets the standing n's run left it in on its event, and queues
// the event when it is notable: the outcome says so, the standing
// changed, it is n's first run, a contest or Options.Verbose. Callers
// hold e.mu.
func (e *Engine) report(n *node, ev *Event, out resources.Outcome, notable bool, before, after status.Standing) {
	ev.Standing = after
	if after != before && before != status.Pending {
		ev.PreviousStanding = before
	}
	notable = notable || ev.PreviousStanding != "" || !n.ran
	if ev.RolledBack && !ev.Failed && !out.Applied {
		// A held vertex found in its last good state: nothing to say.
		notable = false
	}
	n.ran = true
	if e.opts.Observe != nil {
		e.opts.Observe(Observation{Event: ev, Check: out.CheckTime, Apply: out.ApplyTime, Since: n.runSince})
	}
	if notable || ev.Contested || e.opts.Verbose {
		e.outbox = append(e.outbox, ev)
	}
}

// retryNow ends the back-off of the failed vertices among children: a
// parent that just changed may be what they lacked (a file whose missing
// directory was made again), so they run as soon as it is their turn
// rather than when their back-off expires. A child running now may fail
// for what it saw before the change; failed retries it at once too.
// Callers hold e.mu.
func retryNow(children []*node, now time.Time) {
	for _, c := range children {
		switch {
		case c.life.busy():
			c.parentChanged = true
		case c.phase == failed && c.retry.waiting(now):
			c.retry.until = now
		}
	}
}

// scheduleAll schedules the marked vertices of nodes; a queued one whose
// parent failed since it was queued leaves the queue, reported blocked.
// Callers hold e.mu.
func (e *Engine) scheduleAll(nodes []*node, now time.Time) {
	for _, c := range nodes {
		if c.life.marked() {
			e.schedule(c, now)
		}
	}
}

// failed records a failure; msg is its message as reported (redacted).
func (e *Engine) failed(n *node, err error, msg string, refresh bool, now time.Time) bool {
	n.errorText = msg
	n.phase = failed
	n.refresh = n.refresh || refresh
	unhealthy := errors.Is(err, ErrUnhealthy)
	n.unhealthy = unhealthy
	if e.g.FailOnError() && !e.opts.Watch {
		e.queue.halt()
	}
	if !e.opts.Watch {
		return true
	}
	// Remediation: a service restarts, an exec runs again, anything else
	// converges again; the first at once, then backing off.
	if unhealthy && n.v.Refreshable && !e.noop(n) && !n.refresh {
		n.refresh = true
		e.pendingChanged = true
	}
	until := e.backOff(n, unhealthy, now)
	e.markDirty(n, TriggerRetry)
	key := reportKey(err)
	repeated := key == n.lastError
	n.lastError = key
	if repeated {
		e.opts.Logger.Debug("still failing", "resource", n.v.ID(), "retry_at", until)
	}
	return !repeated
}

func (e *Engine) succeeded(n *node, ev *Event, out resources.Outcome, now time.Time) {
	if n.phase == failed && e.opts.Watch {
		e.opts.Logger.Info("recovered", "resource", n.v.ID())
	}
	n.phase = converged
	n.unhealthy = false
	n.convergedTo = n.runDesired + 1
	n.lastError, n.errorText = "", ""
	n.retry.reset()
	n.wouldChange = e.noop(n) && out.Change.Changed
	n.drift = nil
	if out.Change.Changed && !e.noop(n) {
		n.lastChange = &status.Change{Time: ev.Timestamp, Trigger: string(ev.Trigger), Changes: withoutDiffs(ev.Changes), Refreshed: ev.Refreshed}
	}
	if !out.Applied || !out.Change.Changed {
		e.tryCalm(n, now)
		return
	}
	if n.contest.contested {
		n.contest.held = true
		e.pendingChanged = true
		return
	}
	e.refreshSubscribers(n)
}

// refreshSubscribers owes every subscriber of n a refresh. Callers hold
// e.mu.
func (e *Engine) refreshSubscribers(n *node) {
	for _, s := range n.subs {
		// A change noop only predicts refreshes only what runs in noop too.
		if e.noop(n) && !e.noop(s) {
			continue
		}
		s.refresh = true
		e.markDirty(s, TriggerRefresh)
		e.pendingChanged = true
	}
}

// reportBlocked emits a skipped event for n, whose parents failed.
// Callers hold e.mu.
func (e *Engine) reportBlocked(n *node, failedBy []string) {
	e.queue.remove(n)
	n.life.move(block)
	e.touch(n)
	e.changed = true
	ev := newEvent(n, n.trigger, e.noop(n))
	ev.Skipped = true
	ev.UnmetRequirements = failedBy
	e.outbox = append(e.outbox, ev)
	for _, c := range n.children {
		if c.life == dirty || c.life == queued {
			e.reportBlocked(c, c.failedParents())
		}
	}
	// What waits for n only in written order goes on without it.
	e.scheduleAll(n.before, e.opts.Clock.Now())
}

// reportUnrun reports the vertices a one-shot run never reached: stopped
// by fail_on_error or by cancellation. Callers hold e.mu.
func (e *Engine) reportUnrun() {
	if e.opts.Watch {
		return
	}
	for _, n := range e.nodes {
		if !n.life.marked() || n.life == blocked {
			continue
		}
		ev := newEvent(n, n.trigger, e.noop(n))
		ev.Skipped, ev.Unchecked = true, true
		reason := "not run: the run was interrupted"
		if e.queue.halted {
			reason = "not run: fail_on_error stopped the run after a failure"
		}
		ev.Error = []string{reason}
		e.outbox = append(e.outbox, ev)
	}
}

// flush saves the pending refreshes, then emits the queued events in
// order, then the settled state they led to. Events queue under e.mu so a
// failure is reported before the blocked vertices it causes; they are
// emitted outside it. A refresh is owed in the same critical section that
// queues the change causing it, so it is on disk before that change is
// reported. Lock order is emitMu, then mu.
func (e *Engine) flush() {
	e.emitMu.Lock()
	defer e.emitMu.Unlock()
	e.mu.Lock()
	// Writers are named before the events carrying them are emitted;
	// they are taken with those events, so none is emitted unnamed.
	out, settled, names := e.outbox, e.settled, e.naming
	e.outbox, e.settled, e.naming = nil, nil, nil
	var pending []string
	save := e.pendingChanged && e.refreshes != nil
	if save {
		pending = e.pendingIDs()
		e.pendingChanged = false
	}
	undoIO := e.undoIO
	e.undoIO = nil
	e.mu.Unlock()
	e.nameWriters(names, settled)
	if save {
		e.refreshes.save(pending)
	}
	for _, do := range undoIO {
		do()
	}
	for _, ev := range out {
		if ev.external {
			continue
		}
		e.sum.add(ev)
		e.opts.Events(ev)
	}
	if settled != nil {
		e.opts.OnSettled(*settled)
	}
}

// noop reports whether n runs in noop: the whole engine does, or n's
// manifest was applied with noop.
func (e *Engine) noop(n *node) bool { return e.opts.Noop || n.v.Noop }

// monitorOnly reports whether only n's health checks run: the engine's
// mode, or n's manifest was applied with health_check_only.
func (e *Engine) monitorOnly(n *node) bool { return e.opts.MonitorOnly || n.v.HealthCheckOnly }
