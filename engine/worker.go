package engine

import (
	"container/heap"
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/reactive-ccm/ccm/resources"
)

// worker takes ready vertices until the engine stops.
func (e *Engine) worker(ctx context.Context) {
	for {
		e.mu.Lock()
		for e.ready.Len() == 0 && !e.stopping {
			e.cond.Wait()
		}
		if e.stopping {
			e.mu.Unlock()
			return
		}
		n := heap.Pop(&e.ready).(*node)
		n.queued, n.running, n.dirty, n.blocked = false, true, false, false
		trig, refresh := n.trigger, n.refresh
		n.refresh, n.refreshing = false, refresh
		e.running++
		e.mu.Unlock()

		ev, out, err := e.converge(ctx, n, trig, refresh)

		e.mu.Lock()
		e.running--
		e.finish(n, ev, out, err, refresh)
		e.checkIdle()
		e.mu.Unlock()
		e.flush()
	}
}

// converge runs one cycle of n and describes it as an event. Panics in
// resource code become errors at this boundary.
func (e *Engine) converge(ctx context.Context, n *node, trig Trigger, refresh bool) (ev *Event, out resources.Outcome, err error) {
	ev = newEvent(n, trig, e.noop(n))
	start := time.Now()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic in %s: %v\n%s", n.v.ID(), r, debug.Stack())
		}
		ev.Duration = time.Since(start)
		if err != nil {
			// As upstream: a failed run reports no final state and no
			// change, whatever it did on the way.
			ev.Failed = true
			ev.Error = []string{err.Error()}
			return
		}
		ev.FinalEnsure = out.After.Ensure
		ev.Changed = out.Change.Changed
		ev.Refreshed = out.Change.Refreshed
		ev.NoopMessage = out.Change.NoopMessage
		if !ev.Skipped {
			ev.state(out.After.Desired)
		}
	}()
	if c := n.v.Control; c != nil {
		manage, cerr := c(ctx)
		if cerr != nil || !manage {
			ev.Skipped = cerr == nil
			return ev, out, cerr
		}
	}
	out, err = resources.Converge(ctx, n.v.Resource, refresh, e.noop(n))
	return ev, out, err
}

// finish records the result of a run of n, queues its event (a failure
// repeating the same way in watch mode is reported once) and schedules
// what it unblocks; events it causes, such as blocked children, queue
// after it. Callers hold e.mu.
func (e *Engine) finish(n *node, ev *Event, out resources.Outcome, err error, refresh bool) {
	n.running, n.refreshing = false, false
	if refresh {
		e.pendingChanged = true
	}
	now := e.opts.Clock.Now()
	if n.removed {
		if s := n.successor; s != nil {
			s.predecessor = nil
			e.schedule(s, now)
		}
		return
	}
	before := n.standing()
	if e.isRepair(n, out) {
		e.repaired(n, ev, now)
	}
	emit := true
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
		ev.Error = []string{fmt.Sprintf("not checked: depends on %s, which noop did not change (%v)", n.unprepared, err)}
		n.phase = converged
	case err != nil:
		emit = e.failed(n, err, refresh, now)
	default:
		e.succeeded(n, ev, out, now)
	}
	if emit || ev.Contested {
		e.outbox = append(e.outbox, ev)
	}
	if out.Applied || n.standing() != before {
		e.changed = true
	}
	if n.dirty {
		e.schedule(n, now)
	}
	e.scheduleAll(n.children, now)
	e.scheduleAll(n.before, now)
}

// scheduleAll schedules the dirty vertices of nodes. Callers hold e.mu.
func (e *Engine) scheduleAll(nodes []*node, now time.Time) {
	for _, c := range nodes {
		if c.dirty && !c.queued {
			e.schedule(c, now)
		}
	}
}

func (e *Engine) failed(n *node, err error, refresh bool, now time.Time) bool {
	n.phase = failed
	n.refresh = n.refresh || refresh
	if e.g.FailOnError() && !e.opts.Watch {
		e.halted = true
	}
	if !e.opts.Watch {
		return true
	}
	until := n.retry.fail(now, e.opts.Retry)
	n.markDirty(TriggerRetry)
	repeated := err.Error() == n.lastError
	n.lastError = err.Error()
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
	n.convergedOnce = true
	n.lastError = ""
	n.retry.reset()
	n.wouldChange = e.noop(n) && out.Change.Changed
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
		s.markDirty(TriggerRefresh)
		e.pendingChanged = true
	}
}

// reportBlocked emits a skipped event for n, whose parents failed.
// Callers hold e.mu.
func (e *Engine) reportBlocked(n *node, failedBy []string) {
	n.blocked = true
	e.changed = true
	ev := newEvent(n, n.trigger, e.noop(n))
	ev.Skipped = true
	ev.UnmetRequirements = failedBy
	e.outbox = append(e.outbox, ev)
	for _, c := range n.children {
		if c.dirty && !c.blocked && !c.running {
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
		if !n.dirty || n.blocked {
			continue
		}
		ev := newEvent(n, n.trigger, e.noop(n))
		ev.Skipped, ev.Unchecked = true, true
		reason := "not run: the run was interrupted"
		if e.halted {
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
	out, settled := e.outbox, e.settled
	e.outbox, e.settled = nil, nil
	var pending []string
	save := e.pendingChanged && e.refreshes != nil
	if save {
		pending = e.pendingIDs()
		e.pendingChanged = false
	}
	e.mu.Unlock()
	if save {
		e.refreshes.save(pending)
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
