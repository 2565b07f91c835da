package engine

import (
	"container/heap"
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
	old := e.byID
	keep := make(map[string]*node, len(g.Vertices))
	for _, v := range g.Vertices {
		if n, ok := old[v.ID()]; ok && n.v.Fingerprint == v.Fingerprint {
			keep[v.ID()] = n
		}
	}
	var gone []*node
	for id, n := range old {
		if keep[id] == nil {
			gone = append(gone, n)
			e.drop(n)
		}
	}
	fresh := e.install(g, keep)
	// A pause ends with its resource; one changed by the reload stays
	// paused.
	for id := range e.pauses {
		if _, ok := e.byID[id]; !ok {
			delete(e.pauses, id)
		}
	}
	for _, f := range fresh {
		o, ok := old[f.v.ID()]
		if !ok {
			continue
		}
		if o.running {
			f.predecessor, o.successor = o, f
		}
		// A changed resource still owes the refresh its old version did.
		f.refresh = o.refresh || o.refreshing
	}
	e.rejudge()
	for _, n := range gone {
		e.retire(n)
	}
	var forget []string
	for _, n := range gone {
		if _, still := e.byID[n.v.ID()]; n.undo != nil && !still {
			forget = append(forget, n.v.ID())
		}
	}
	e.mu.Unlock()

	for _, n := range gone {
		if n.unwatch != nil {
			n.unwatch()
		}
	}
	for _, id := range forget {
		e.rollbacks.drop(id)
	}
	recs := e.readRecords(fresh)
	var err error
	if e.opts.Watch {
		// Fresh vertices are armed before their first check, like at
		// startup.
		err = e.arm(ctx, fresh)
	}
	e.mu.Lock()
	e.applyRecords(recs)
	e.markAll(fresh, t)
	// Kept vertices may have been waiting on a parent that is gone.
	now := e.opts.Clock.Now()
	for _, n := range e.nodes {
		if n.dirty && !n.queued {
			e.schedule(n, now)
		}
	}
	e.changed = true
	e.checkIdle()
	e.mu.Unlock()
	e.flush()
	st := SwapStats{Kept: len(keep), Added: len(fresh), Removed: len(gone)}
	if err != nil {
		return st, fmt.Errorf("reload: %w", err)
	}
	return st, nil
}

// drop retires a vertex the new graph no longer has. Callers hold e.mu.
func (e *Engine) drop(n *node) {
	n.removed = true
	if n.refresh || n.refreshing {
		e.pendingChanged = true
	}
	if n.queued {
		heap.Remove(&e.ready, n.heapIndex)
		n.queued = false
	}
	delete(e.timed, n)
	delete(e.fights, n)
	n.contest.closeWitness()
	if n.contest.held {
		// Its replacement, or its subscribers' successors, still owe it.
		e.refreshSubscribers(n)
	}
}
