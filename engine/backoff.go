package engine

import (
	"context"
	"math/rand/v2"
	"time"
)

// RetryPolicy spaces out the retries of a failing vertex in watch mode:
// exponential from Base to Max, with ±20% jitter. Failures never become
// permanent.
type RetryPolicy struct {
	Base, Max time.Duration
}

// jitter spreads d by ±20% so many vertices failing together do not
// retry in lockstep.
func jitter(d time.Duration) time.Duration {
	return d + time.Duration((rand.Float64()*0.4-0.2)*float64(d))
}

type retryState struct {
	// attempts counts the failures in a row: the exponent of the back-off.
	attempts int
	// last is when the last failure was recorded, until when the vertex
	// runs again.
	last, until time.Time
}

func (r *retryState) waiting(now time.Time) bool { return now.Before(r.until) }

// fail records a failure and returns when to try again.
func (r *retryState) fail(now time.Time, p RetryPolicy) time.Time {
	d := p.Base << min(r.attempts, 30)
	if d <= 0 || d > p.Max {
		d = p.Max
	}
	r.attempts++
	r.last, r.until = now, now.Add(jitter(d))
	return r.until
}

// hasten brings the next attempt forward for an event (see hastens): to
// the first step (p.Base, a second by default) after the last failure,
// when that is sooner. So a fix is tried at once, or a step after the
// failure, while events that keep coming retry a persistent failure no
// more often than every step. The exponent stays: only a success resets it, so the back-off
// goes on growing. It reports whether the attempt moved.
func (r *retryState) hasten(p RetryPolicy) bool {
	at := r.last.Add(p.Base)
	if r.attempts == 0 || !at.Before(r.until) {
		return false
	}
	r.until = at
	return true
}

// hastens reports whether a mark with trigger t is news that may end a
// failure: drift, a new desired state, a refresh, a re-check. A poll and
// a health check are not: they come on their own timers whatever
// happened, and would cap the back-off at their interval.
func hastens(t Trigger) bool {
	switch t {
	case TriggerDrift, TriggerSource, TriggerRefresh, TriggerRecheck:
		return true
	}
	return false
}

// remediate records a failed health check and returns when to remediate:
// the first time at once, then backing off as failures do.
func (r *retryState) remediate(now time.Time, p RetryPolicy) time.Time {
	if r.attempts == 0 {
		r.attempts = 1
		r.last, r.until = now, now
		return now
	}
	return r.fail(now, p)
}

func (r *retryState) reset() { *r = retryState{} }

// nudge applies a mark of n with trigger t to its retry back-off: an
// event brings its next attempt forward (retryState.hasten). An event
// while n is checked may be what the run lacked: it counts once the run
// has failed (backOff). Callers hold e.mu.
func (e *Engine) nudge(n *node, t Trigger) {
	if !e.opts.Watch || !hastens(t) {
		return
	}
	if n.life.busy() {
		n.nudged = n.nudged || !n.writing
		return
	}
	if n.retry.hasten(e.opts.Retry) {
		// The timer loop may sleep until the old deadline.
		e.poke()
	}
}

// backOff schedules the next attempt of n, whose run failed at now, and
// returns when it is. Callers hold e.mu.
func (e *Engine) backOff(n *node, unhealthy bool, now time.Time) time.Time {
	if unhealthy {
		n.retry.remediate(now, e.opts.Retry)
	} else {
		n.retry.fail(now, e.opts.Retry)
	}
	switch {
	case n.parentChanged:
		// What this run lacked may have come during it.
		n.retry.until = now
	case n.nudged:
		n.retry.hasten(e.opts.Retry)
	}
	return n.retry.until
}

// applying returns the hook that runs just before n's apply, then next,
// if any. Events before the apply were seen by it, and events from then
// on may be the echo of its own write (a service whose start fails sends
// signals of its own before the job's result; a write the check after it
// finds undone), so none of them brings a retry forward if the run
// fails: a failure that persists would be retried every first step.
func (e *Engine) applying(n *node, next func(context.Context) error) func(context.Context) error {
	return func(ctx context.Context) error {
		e.mu.Lock()
		n.nudged, n.writing = false, true
		e.mu.Unlock()
		if next == nil {
			return nil
		}
		return next(ctx)
	}
}
