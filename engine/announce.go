package engine

import (
	"time"

	"github.com/reactive-ccm/ccm/engine/daemon/status"
	"github.com/reactive-ccm/ccm/resources"
)

// told is what Options.Announce was last told of a vertex.
type told int8

const (
	untold told = iota
	toldStable
	toldUnstable
)

// announce tells Options.Announce whether n, a vertex that registers
// services, stands stable, when that changed. Stable is converged,
// managed on this host (not skipped by control), every health check OK;
// failed, unhealthy, contested and paused are not. A pending, blocked or
// rolled-back vertex leaves its registrations as they are: nothing was
// learnt about what it manages. Nothing is told in noop. Callers hold
// e.mu.
func (e *Engine) announce(n *node, now time.Time) {
	if e.opts.Announce == nil || len(n.v.Registrations) == 0 || e.noop(n) {
		return
	}
	var t told
	switch e.standingOf(n, now, false) {
	case status.Converged:
		t = toldUnstable
		if !n.skipped && healthOK(n) {
			t = toldStable
		}
	case status.Failed, status.Unhealthy, status.Contested, status.Paused:
		t = toldUnstable
	default:
		return
	}
	if t != n.told {
		n.told = t
		e.opts.Announce(n.v, t == toldStable)
	}
}

// healthOK reports whether every health check of n passed its last run:
// a WARNING withholds registrations, as upstream's publish gate does.
func healthOK(n *node) bool {
	if len(n.v.Health) == 0 {
		return true
	}
	if len(n.health) != len(n.v.Health) {
		return false
	}
	for _, r := range n.health {
		if r.Status != resources.HealthOK {
			return false
		}
	}
	return true
}

// announceAll re-tells every vertex's stability: a pause started or
// ended. Callers hold e.mu.
func (e *Engine) announceAll(nodes []*node) {
	now := e.opts.Clock.Now()
	for _, n := range nodes {
		e.announce(n, now)
	}
}

// retire tells Options.Announce that the registrations of a vertex a
// reload replaced or removed stand no more, unless its successor
// registers services itself, which then decides. Callers hold e.mu.
func (e *Engine) retire(old *node) {
	if e.opts.Announce == nil || old.told != toldStable {
		return
	}
	if n, ok := e.byID[old.v.ID()]; ok && len(n.v.Registrations) > 0 {
		return
	}
	old.told = toldUnstable
	e.opts.Announce(old.v, false)
}
