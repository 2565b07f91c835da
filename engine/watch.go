package engine

import (
	"context"
	"fmt"
	"time"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/watchers/clock"
)

// watchState is what a vertex's watch registered.
type watchState struct {
	// unwatch drops the vertex's watch registrations.
	unwatch func()
	// paths are the paths its watch names, for a witness of who changes
	// them.
	paths []string
	// pollEvery is the interval of the vertex's poll, if it has one: drift
	// a poll finds happened at most that long before.
	pollEvery time.Duration
}

// arm registers every node's watches with the shared sources and waits
// until they are armed, so nothing between a first check and its watch
// goes unseen.
func (e *Engine) arm(ctx context.Context, nodes []*node) error {
	for _, n := range nodes {
		if err := e.watch(ctx, n); err != nil {
			return err
		}
	}
	if e.opts.Watchers.Ready == nil {
		return nil
	}
	if err := e.opts.Watchers.Ready(ctx); err != nil {
		return fmt.Errorf("arming watches: %w", err)
	}
	return nil
}

// watch routes one node's WatchSpec to the shared sources.
func (e *Engine) watch(ctx context.Context, n *node) error {
	spec := n.v.Resource.Watch()
	n.paths = spec.Paths
	drift := func() { e.mark(n, TriggerDrift) }
	source := func() { e.mark(n, TriggerSource) }
	poll := func() { e.mark(n, TriggerPoll) }
	cancels := e.route(n, spec, drift, source, poll)
	if l := n.v.Lookups; l != nil && e.opts.Watchers.Lookups != nil {
		cancels = append(cancels, e.opts.Watchers.Lookups(l, source))
	}
	cancels = append(cancels, e.watchHealth(n)...)
	if spec.Func != nil {
		cancel, err := e.runWatchFunc(ctx, n, spec.Func, drift)
		if err != nil {
			return err
		}
		cancels = append(cancels, cancel)
	}
	n.unwatch = func() {
		for _, c := range cancels {
			c()
		}
	}
	return nil
}

// route registers what spec names with the shared sources: what a
// resource manages as drift, what its desired state is read from as a new
// desired state (source), and its poll. Without an event source, or with
// --poll, every watched thing is polled instead. It returns the cancels.
func (e *Engine) route(n *node, spec resources.WatchSpec, drift, source, poll func()) []func() {
	w := e.opts.Watchers
	var cancels []func()
	interval := spec.Poll
	if interval == resources.PollDefault || (interval > 0 && e.opts.ForcePoll) {
		interval = e.opts.PollInterval
	}
	watched := len(spec.Paths)+len(spec.Trees)+len(spec.Units)+len(spec.Mounts)+len(spec.Inputs)+len(spec.InputTrees) > 0
	switch {
	case watched && (e.opts.ForcePoll || w.Paths == nil):
		// One timer per vertex covers all its paths and units.
		interval = e.opts.PollInterval
	case watched:
		for _, p := range spec.Paths {
			cancels = append(cancels, w.Paths(p, drift, poll))
		}
		for _, t := range spec.Trees {
			cancels = append(cancels, w.Trees(t, drift))
		}
		for _, p := range spec.Inputs {
			cancels = append(cancels, w.Paths(p, source, poll))
		}
		for _, t := range spec.InputTrees {
			cancels = append(cancels, w.Trees(t, source))
		}
		for _, u := range spec.Units {
			cancels = append(cancels, e.unitWatch(u, drift, poll))
		}
		for _, m := range spec.Mounts {
			cancels = append(cancels, e.mountWatch(m, drift, poll))
		}
	}
	if interval > 0 && w.Poll != nil {
		n.pollEvery = interval
		cancels = append(cancels, w.Poll(interval, poll))
	}
	return cancels
}

// unitWatch watches a systemd unit, polling when no unit source is set.
func (e *Engine) unitWatch(unit string, drift, poll func()) func() {
	if w := e.opts.Watchers; w.Units != nil {
		return w.Units(unit, drift)
	}
	return e.opts.Watchers.Poll(e.opts.PollInterval, poll)
}

// mountWatch watches a mount point, polling when no mount source is set.
func (e *Engine) mountWatch(path string, drift, poll func()) func() {
	if w := e.opts.Watchers; w.Mounts != nil {
		return w.Mounts(path, drift)
	}
	return e.opts.Watchers.Poll(e.opts.PollInterval, poll)
}

// runWatchFunc starts a resource's own watch function and waits until it
// says it is armed. Its errors are logged; it is restarted with back-off.
func (e *Engine) runWatchFunc(ctx context.Context, n *node, fn func(ctx context.Context, ready, notify func()) error, drift func()) (func(), error) {
	wctx, cancel := context.WithCancel(ctx)
	ready := make(chan struct{})
	readyOnce := func() {
		select {
		case <-ready:
		default:
			close(ready)
		}
	}
	go func() {
		var r retryState
		for wctx.Err() == nil {
			err := fn(wctx, readyOnce, drift)
			if wctx.Err() != nil {
				return
			}
			clk := e.opts.Clock
			until := r.fail(clk.Now(), e.opts.Retry)
			e.opts.Logger.Warn("watch stopped; restarting", "resource", n.v.ID(), "error", err, "retry_at", until)
			drift()
			t := clk.NewTimer(until.Sub(clk.Now()))
			select {
			case <-wctx.Done():
			case <-t.C():
			}
			t.Stop()
		}
	}()
	select {
	case <-ready:
		return cancel, nil
	case <-ctx.Done():
		cancel()
		return nil, ctx.Err()
	}
}

// Recheck marks every vertex dirty now, as the periodic full re-check
// does (SIGUSR1).
func (e *Engine) Recheck() {
	e.mu.Lock()
	e.markAll(e.nodes, TriggerRecheck)
	e.mu.Unlock()
	e.flush()
}

// Ping returns once the scheduler's timer loop has answered, proving it
// and the engine lock are alive; a watchdog uses it.
func (e *Engine) Ping(ctx context.Context) error {
	reply := make(chan struct{})
	select {
	case e.pings <- reply:
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-reply:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// timerLoop wakes vertices whose back-off expired, runs the periodic full
// re-check and answers pings, until ctx is cancelled.
func (e *Engine) timerLoop(ctx context.Context) {
	clk := e.opts.Clock
	var recheck clock.Timer
	var rechecks <-chan time.Time // nil, never ready, without re-checks
	if e.opts.Recheck > 0 {
		recheck = clk.NewTimer(jitter(e.opts.Recheck))
		defer recheck.Stop()
		rechecks = recheck.C()
	}
	timer := clk.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		timer.ResetAt(e.nextWake())
		select {
		case <-ctx.Done():
			return
		case <-e.wake:
		case <-timer.C():
		case reply := <-e.pings:
			e.mu.Lock()
			close(reply)
			e.mu.Unlock()
		case <-rechecks:
			e.Recheck()
			recheck.Reset(jitter(e.opts.Recheck))
		}
		e.wakeExpired()
	}
}

// nextWake returns when the earliest back-off or timed pause expires, at
// most an hour from now.
func (e *Engine) nextWake() time.Time {
	e.mu.Lock()
	defer e.mu.Unlock()
	now := e.opts.Clock.Now()
	next := now.Add(time.Hour)
	if end := e.nextPauseEnd(); !end.IsZero() && end.Before(next) {
		next = end
	}
	soonest := func(t time.Time) {
		if t.Before(next) {
			next = t
		}
	}
	// A deadline that passed since wakeExpired looked wakes the loop at
	// once: skipping it as past would leave it for the hour. A waiting
	// vertex runs once no back-off holds it; a fighting one is calm once
	// idle (finish wakes the loop when a run of one ends).
	for n := range e.queue.waiting {
		soonest(later(n.retry.until, n.contest.until))
	}
	for n := range e.fights {
		if n.life == idle {
			soonest(n.contest.calmAt(e.opts.Contest))
		}
	}
	e.wakeAt = next
	return next
}

// later returns the later of a and b.
func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// wakeExpired ends expired pauses and schedules the vertices whose
// back-off has expired.
func (e *Engine) wakeExpired() {
	e.mu.Lock()
	now := e.opts.Clock.Now()
	e.endPauses(now)
	for _, n := range e.queue.expired(now) {
		e.schedule(n, now)
	}
	// A fighting vertex left alone, with no check pending, is calm.
	for n := range e.fights {
		if n.life == idle {
			e.tryCalm(n, now)
		}
	}
	e.checkIdle()
	e.mu.Unlock()
	e.flush()
}

// WaitIdle returns once no vertex runs or is ready to run and every event
// up to then has been emitted; vertices waiting on a back-off do not
// count. With a clock.Fake it tells a test that the engine has done all it
// can until the time moves or an event comes.
func (e *Engine) WaitIdle(ctx context.Context) error {
	for {
		e.flush()
		e.emitMu.Lock()
		e.mu.Lock()
		quiet := e.queue.idle()
		flushed := len(e.outbox) == 0
		changed := e.idle
		e.mu.Unlock()
		e.emitMu.Unlock()
		switch {
		case quiet && flushed:
			return nil
		case quiet:
			// Events queued by a run that ended after the flush above: the
			// engine already went idle, so flush them instead of waiting.
			continue
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
