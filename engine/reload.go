package engine

import (
	"context"
	"fmt"

	"github.com/reactive-ccm/ccm/graph"
)

// SwapStats says what a graph swap did.
type SwapStats struct {
	Kept, Added, Removed int
}

// Swap replaces the running graph with g (a reload in watch mode). Vertices with the
// same ID and fingerprint keep running with their state (cached results,
// pending refreshes, back-offs, watches); removed ones stop; new or
// changed ones are watched and start dirty. A changed vertex still running
// its old version waits for it to finish. Swap never stops unrelated work.
func (e *Engine) Swap(ctx context.Context, g *graph.Graph) (SwapStats, error) {
	e.swapMu.Lock()
	defer e.swapMu.Unlock()
	return e.swap(ctx, g, TriggerReload)
}

// swap installs g, its new vertices dirty with trigger t. Callers hold
// e.swapMu.
func (e *Engine) swap(ctx context.Context, g *graph.Graph, t Trigger) (SwapStats, error) {
	e.mu.Lock()
	c := e.replace(g)
	e.mu.Unlock()

	for _, n := range c.gone {
		if n.unwatch != nil {
			n.unwatch()
		}
	}
	for _, id := range c.forget {
		e.rollbacks.drop(id)
	}
	recs := e.readRecords(c.fresh)
	var err error
	if e.opts.Watch {
		// Fresh vertices are armed before their first check, like at
		// startup.
		err = e.arm(ctx, c.fresh)
	}
	e.mu.Lock()
	e.applyRecords(recs)
	e.markAll(c.fresh, t)
	// Kept vertices may have been waiting on a parent that is gone.
	e.scheduleAll(e.nodes, e.opts.Clock.Now())
	e.changed = true
	e.checkIdle()
	e.mu.Unlock()
	e.flush()
	st := SwapStats{Kept: c.kept, Added: len(c.fresh), Removed: len(c.gone)}
	if err != nil {
		return st, fmt.Errorf("reload: %w", err)
	}
	return st, nil
}

// swapped is what replace did: the vertices kept, added and dropped, and
// the dropped ones whose rollback records go with them.
type swapped struct {
	kept   int
	fresh  []*node
	gone   []*node
	forget []string
}

// replace installs g in place of the running graph: vertices with the
// same ID and fingerprint are kept, the others dropped, and a changed
// vertex's replacement inherits what its old version still owed. Callers
// hold e.mu.
func (e *Engine) replace(g *graph.Graph) swapped {
	old := e.byID
	keep := make(map[string]*node, len(g.Vertices))
	for _, v := range g.Vertices {
		if n, ok := old[v.ID()]; ok && n.v.Fingerprint == v.Fingerprint {
			keep[v.ID()] = n
		}
	}
	var c swapped
	for id, n := range old {
		if keep[id] == nil {
			c.gone = append(c.gone, n)
			e.drop(n)
		}
	}
	c.kept, c.fresh = len(keep), e.install(g, keep)
	// A pause ends with its resource; one changed by the reload stays
	// paused.
	for id := range e.pauses {
		if _, ok := e.byID[id]; !ok {
			delete(e.pauses, id)
		}
	}
	inherit(c.fresh, old)
	e.rejudge()
	for _, n := range c.gone {
		e.retire(n)
	}
	for _, n := range c.gone {
		if _, still := e.byID[n.v.ID()]; n.undo != nil && !still {
			c.forget = append(c.forget, n.v.ID())
		}
	}
	return c
}

// inherit hands each changed vertex among fresh what its old version
// still owed: it waits for the old one to stop running, and takes over
// its refresh. Callers hold e.mu.
func inherit(fresh []*node, old map[string]*node) {
	for _, f := range fresh {
		o, ok := old[f.v.ID()]
		if !ok {
			continue
		}
		if o.life.busy() {
			f.predecessor, o.successor = o, f
		}
		// A changed resource still owes the refresh its old version did.
		f.refresh = o.refresh || o.refreshing
	}
}

// drop retires a vertex the new graph no longer has. Callers hold e.mu.
func (e *Engine) drop(n *node) {
	e.queue.remove(n)
	delete(e.queue.waiting, n)
	n.life.move(remove)
	if n.refresh || n.refreshing {
		e.pendingChanged = true
	}
	delete(e.fights, n)
	n.contest.closeWitness()
	if n.contest.held {
		// Its replacement, or its subscribers' successors, still owe it.
		e.refreshSubscribers(n)
	}
}
