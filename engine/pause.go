package engine

import (
	"fmt"
	"time"

	"github.com/reactive-ccm/ccm/engine/daemon/status"
)

// Pause keeps ccm's hands off the resources refs names ("type#name" or
// "type#alias") until p.Until, or until Resume when it is zero. A paused
// resource is still checked and its drift reported as what it would
// repair; nothing is changed, and it neither refreshes its subscribers nor
// consumes a refresh until resumed. Pausing again replaces the pause. An
// unknown reference pauses nothing and wraps ErrUnknownResource.
func (e *Engine) Pause(refs []string, p status.Pause) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	nodes, err := e.resolve(refs)
	if err != nil {
		return err
	}
	for _, n := range nodes {
		cp := p
		e.pauses[n.v.ID()] = &cp
	}
	e.announceAll(nodes)
	e.poke()
	e.opts.Logger.Info("paused", "resources", refs, "by", p.By, "until", untilText(p.Until))
	return nil
}

// PauseAll pauses every resource, those a reload adds included.
func (e *Engine) PauseAll(p status.Pause) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.pausedAll = &p
	e.announceAll(e.nodes)
	e.poke()
	e.opts.Logger.Info("paused every resource", "by", p.By, "until", untilText(p.Until))
}

// Resume ends the pauses of the resources refs names. Each is checked
// again at once (trigger resume), so drift found while it was paused is
// repaired and a refresh held back is delivered. A resource held at its
// last good state after a rollback is released too (see Release).
func (e *Engine) Resume(refs []string) error {
	e.mu.Lock()
	nodes, err := e.resolve(refs)
	if err != nil {
		e.mu.Unlock()
		return err
	}
	for _, n := range nodes {
		delete(e.pauses, n.v.ID())
		e.release(n)
	}
	e.opts.Logger.Info("resumed", "resources", refs)
	e.markAll(nodes, TriggerResume)
	e.mu.Unlock()
	e.flush()
	return nil
}

// ResumeAll ends every pause, PauseAll's and each resource's.
func (e *Engine) ResumeAll() {
	e.mu.Lock()
	e.pausedAll = nil
	clear(e.pauses)
	for _, n := range e.nodes {
		e.release(n)
	}
	e.opts.Logger.Info("resumed every resource")
	e.markAll(e.nodes, TriggerResume)
	e.mu.Unlock()
	e.flush()
}

// RecheckResource checks one resource now, as Recheck does for all.
func (e *Engine) RecheckResource(ref string) error {
	e.mu.Lock()
	nodes, err := e.resolve([]string{ref})
	if err == nil {
		e.markAll(nodes, TriggerRecheck)
	}
	e.mu.Unlock()
	e.flush()
	return err
}

// resolve finds the vertices refs names, by ID or by "type#alias".
// Callers hold e.mu.
func (e *Engine) resolve(refs []string) ([]*node, error) {
	out := make([]*node, 0, len(refs))
	for _, ref := range refs {
		n, ok := e.byID[ref]
		if !ok {
			n = e.byAlias(ref)
		}
		if n == nil {
			return nil, fmt.Errorf("%w: %q (write type#name, as ccm status lists them)", ErrUnknownResource, ref)
		}
		out = append(out, n)
	}
	return out, nil
}

func (e *Engine) byAlias(ref string) *node {
	for _, n := range e.nodes {
		if n.v.Alias != "" && n.v.Type+"#"+n.v.Alias == ref {
			return n
		}
	}
	return nil
}

// pauseOf returns the pause in force for n, or nil. Callers hold e.mu.
func (e *Engine) pauseOf(n *node, now time.Time) *status.Pause {
	// The ID is built on each call: look it up only when something is
	// paused, since every run asks.
	if len(e.pauses) > 0 {
		if p := e.pauses[n.v.ID()]; p.Active(now) {
			return p
		}
	}
	if e.pausedAll.Active(now) {
		return e.pausedAll
	}
	return nil
}

// nextPauseEnd returns the earliest end of a timed pause, or zero.
// Callers hold e.mu.
func (e *Engine) nextPauseEnd() time.Time {
	var next time.Time
	consider := func(p *status.Pause) {
		if p != nil && !p.Until.IsZero() && (next.IsZero() || p.Until.Before(next)) {
			next = p.Until
		}
	}
	consider(e.pausedAll)
	for _, p := range e.pauses {
		consider(p)
	}
	return next
}

// endPauses ends the timed pauses that expired by now and checks their
// resources again. Callers hold e.mu.
func (e *Engine) endPauses(now time.Time) {
	var ended []*node
	if p := e.pausedAll; p != nil && !p.Active(now) {
		e.pausedAll = nil
		e.opts.Logger.Info("the pause of every resource ended", "by", p.By)
		ended = e.nodes
	}
	for id, p := range e.pauses {
		if p.Active(now) {
			continue
		}
		delete(e.pauses, id)
		if n, ok := e.byID[id]; ok {
			e.opts.Logger.Info("pause ended", "resource", id, "by", p.By)
			ended = append(ended, n)
		}
	}
	if len(ended) > 0 {
		e.markAll(ended, TriggerResume)
	}
}

func untilText(t time.Time) string {
	if t.IsZero() {
		return "resumed"
	}
	return t.Format(time.RFC3339)
}
