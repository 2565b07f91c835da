package engine

import (
	"slices"
	"time"

	"github.com/reactive-ccm/ccm/engine/daemon/status"
)

// standingOf says where n stands at now. With queued set, a vertex
// waiting to be checked counts as pending, as status shows it; events
// leave that out, so a vertex marked again while it ran does not look
// changed. Callers hold e.mu.
func (e *Engine) standingOf(n *node, now time.Time, queued bool) status.Standing {
	switch {
	case e.pauseOf(n, now) != nil:
		return status.Paused
	case n.contest.contested:
		return status.Contested
	case n.held:
		return status.RolledBack
	case n.phase == failed && n.unhealthy:
		return status.Unhealthy
	case n.phase == failed:
		return status.Failed
	case n.life == blocked:
		return status.Blocked
	case n.phase == pending, queued && n.life.marked():
		return status.Pending
	}
	return status.Converged
}

// Status reports every vertex's standing and recent history, in manifest
// order. The Daemon part holds only LastConverged: the engine knows
// nothing else about the process.
func (e *Engine) Status() status.Report {
	e.mu.Lock()
	defer e.mu.Unlock()
	now := e.opts.Clock.Now()
	r := status.Report{Time: now, Resources: make([]status.Resource, 0, len(e.nodes))}
	r.Daemon.LastConverged = e.lastConverged
	if e.pausedAll.Active(now) {
		p := *e.pausedAll
		r.PausedAll = &p
	}
	for _, n := range e.nodes {
		res := e.resourceStatus(n, now)
		r.Counts.Add(res.Standing)
		r.Resources = append(r.Resources, res)
	}
	return r
}

// LastConverged returns when every vertex last stood converged.
func (e *Engine) LastConverged() time.Time {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.lastConverged
}

// resourceStatus describes one vertex. Callers hold e.mu.
func (e *Engine) resourceStatus(n *node, now time.Time) status.Resource {
	res := status.Resource{ID: n.v.ID(), Alias: n.v.Alias, Standing: e.standingOf(n, now, true), LastChange: n.lastChange}
	if n.phase == failed {
		res.LastError = n.errorText
	}
	if n.contest.contested {
		res.Writer = n.contest.writer
	}
	if until := n.waitsUntil(now); !until.IsZero() {
		res.NextRetry = &until
	}
	if p := e.pauseOf(n, now); p != nil {
		cp := *p
		res.Paused = &cp
		res.Drift = slices.Clone(n.drift)
	}
	return res
}

// waitsUntil returns when a failed or contested vertex runs again, or
// zero.
func (n *node) waitsUntil(now time.Time) time.Time {
	var until time.Time
	if n.retry.waiting(now) {
		until = n.retry.until
	}
	if n.contest.waiting(now) && n.contest.until.After(until) {
		until = n.contest.until
	}
	return until
}
