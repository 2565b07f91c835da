package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
)

// ErrUnhealthy is wrapped by the failure of a resource's health checks.
var ErrUnhealthy = errors.New("unhealthy")

// HealthError is a resource's health checks failing: the CRITICAL and
// UNKNOWN results, in manifest order.
type HealthError struct {
	Failing []resources.HealthResult
}

func (e *HealthError) Error() string {
	parts := make([]string, len(e.Failing))
	for i, r := range e.Failing {
		parts[i] = fmt.Sprintf("health check %s %s", r.Name, r.Status)
		if r.Output != "" {
			parts[i] += ": " + firstLine(r.Output)
		}
	}
	return strings.Join(parts, "; ")
}

func (e *HealthError) Unwrap() error { return ErrUnhealthy }

// critical reports whether any check is CRITICAL: what a rollback answers.
func (e *HealthError) critical() bool {
	for _, r := range e.Failing {
		if r.Status == resources.HealthCritical {
			return true
		}
	}
	return false
}

// healthState is what a vertex's health checks left.
type healthState struct {
	// healthDue marks the checks whose own period came round since the
	// last run; nil when none did.
	healthDue []bool
	// health holds the last result of each check that ran, by check.
	health []resources.HealthResult
	// unhealthy is set while the last run failed its health checks.
	unhealthy bool
	// healthReported is the healthKey of the results last reported, so
	// periodic checks report only a change of result.
	healthReported string
	// probing is set while a probe of the checks runs (probe): the vertex
	// does not run meanwhile.
	probing bool
}

// healthKey says which checks are not OK and how, leaving out their
// output, which may differ on every run (response times, counts): a
// change of key is a change of result, reported once.
func healthKey(results []resources.HealthResult) string {
	var b strings.Builder
	for _, r := range results {
		if r.Status != resources.HealthOK {
			fmt.Fprintf(&b, "%s=%s;", r.Name, r.Status)
		}
	}
	return b.String()
}

// reportKey is what tells one failure from another for reporting once.
func reportKey(err error) string {
	var he *HealthError
	if errors.As(err, &he) {
		return healthKey(he.Failing)
	}
	return err.Error()
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// healthPlan says which of a vertex's checks a run owes: all of them, or
// those whose own period came round.
type healthPlan struct {
	all bool
	due []bool
}

func (p healthPlan) any() bool { return p.all || len(p.due) > 0 }

// runHealth runs the planned checks in manifest order, adding their
// results to ev, and returns a *HealthError when any fails.
func (e *Engine) runHealth(ctx context.Context, n *node, plan healthPlan, ev *Event) error {
	var failing []resources.HealthResult
	for i, c := range n.v.Health {
		if !plan.all && (i >= len(plan.due) || !plan.due[i]) {
			continue
		}
		res := c.Run(ctx, e.opts.Clock)
		ev.HealthChecks = append(ev.HealthChecks, res)
		ev.healthIdx = append(ev.healthIdx, i)
		if res.Status.Failing() {
			failing = append(failing, res)
		}
	}
	if len(failing) > 0 {
		return &HealthError{Failing: failing}
	}
	return nil
}

// markHealth records that check i of n is due: its own period came round.
func (e *Engine) markHealth(n *node, i int) {
	e.mu.Lock()
	if n.healthDue == nil {
		n.healthDue = make([]bool, len(n.v.Health))
	}
	n.healthDue[i] = true
	e.mu.Unlock()
	e.mark(n, TriggerHealth)
	e.mu.Lock()
	if e.probeDue(n) {
		n.probing = true
		e.queue.probing()
		e.probes.Add(1)
		go e.probe(n)
	}
	e.mu.Unlock()
}

// probeDue reports whether a periodic check of n should probe its health:
// n waits on the back-off of an unhealthy run, and no probe runs. A
// periodic check does not bring the retry forward (hastens), but the
// checks passing on their own end the wait at once: a service that
// recovered is seen at its next check, not at the back-off's deadline.
// Callers hold e.mu.
func (e *Engine) probeDue(n *node) bool {
	return !e.stopping && n.life == dirty && n.phase == failed && n.unhealthy &&
		!n.probing && n.retry.waiting(e.opts.Clock.Now())
}

// probe runs n's checks, and only them: nothing is checked, applied or
// remediated. When every check passes, n's back-off ends and n runs; a
// failing probe changes nothing.
func (e *Engine) probe(n *node) {
	defer e.probes.Done()
	err := e.runHealth(e.probeCtx, n, healthPlan{all: true}, &Event{})
	e.mu.Lock()
	n.probing = false
	e.queue.probed()
	now := e.opts.Clock.Now()
	if err == nil {
		e.opts.Logger.Debug("health checks pass again: retrying now", "resource", n.v.ID())
		n.retry.until = now
	}
	// A deadline that came while the probe ran left n to it.
	if !e.stopping && n.life == dirty {
		e.schedule(n, now)
	}
	e.checkIdle()
	e.mu.Unlock()
	e.flush()
}

// watchHealth runs each of n's checks every period, with jitter: its own
// interval, else HealthInterval (none when that is negative).
func (e *Engine) watchHealth(n *node) []func() {
	poll := e.opts.Watchers.Poll
	if poll == nil {
		return nil
	}
	var cancels []func()
	for i, c := range n.v.Health {
		every := c.Interval()
		if every <= 0 {
			every = e.opts.HealthInterval
		}
		if every > 0 {
			cancels = append(cancels, poll(every, func() { e.markHealth(n, i) }))
		}
	}
	return cancels
}
