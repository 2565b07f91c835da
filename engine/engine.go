package engine

import (
	"context"
	"sync"
	"time"

	"github.com/reactive-ccm/ccm/engine/daemon/status"
	"github.com/reactive-ccm/ccm/graph"
)

// Engine runs one graph at a time; in watch mode Swap replaces it.
type Engine struct {
	opts Options

	// swapMu serialises graph swaps, reloads and child manifests loaded
	// at run time alike, so each builds on the graph the last installed.
	swapMu sync.Mutex
	mu     sync.Mutex
	cond   *sync.Cond // signalled when the queue gains work or room, or stopping is set
	g      *graph.Graph
	nodes  []*node
	byID   map[string]*node
	queue  workQueue
	// fights holds the contested vertices and those with a witness armed,
	// for the timer loop to find when they become calm.
	fights   map[*node]struct{}
	stopping bool
	// changed is set when a vertex's standing changed or something was
	// applied since the engine was last idle; going idle then fires
	// OnSettled. Checks that find everything in order (polls, re-checks)
	// do not, so a status consumer is not woken for nothing.
	changed bool
	idle    chan struct{}      // closed and replaced each time the engine goes idle
	wake    chan struct{}      // pokes the timer loop when back-off times change
	pings   chan chan struct{} // liveness probes answered by the timer loop
	// wakeAt is when the timer loop next wakes unpoked, as it last
	// computed (nextWake): a vertex whose calm comes later needs no poke.
	wakeAt time.Time
	// probes counts the health probes running (probe); stop ends them
	// with cancelProbes and waits for them.
	probes       sync.WaitGroup
	probeCtx     context.Context
	cancelProbes context.CancelFunc

	// outbox holds events queued under mu, in order, until flush.
	outbox []*Event
	// naming holds the writers of contested vertices to name in flush,
	// before the events in outbox that carry them.
	naming []naming
	// settled is the state to hand OnSettled at the next flush, after the
	// events that led to it.
	settled *State
	emitMu  sync.Mutex
	sum     Summary

	// pauses holds each paused vertex's pause by ID, so a pause outlives
	// a reload that rebuilds the vertex; pausedAll pauses every vertex.
	pauses    map[string]*status.Pause
	pausedAll *status.Pause
	// lastConverged is when every vertex last stood converged.
	lastConverged time.Time
	// refreshes keeps pending refreshes across restarts; nil without a
	// state directory. Used under emitMu.
	refreshes *refreshStore
	// pendingChanged is set when the set of vertices owed a refresh may
	// have changed since it was last saved.
	pendingChanged bool
	// rollbacks keeps rollback records; nil without a state directory.
	// Safe for concurrent use.
	rollbacks *rollbackStore
	// undoIO holds rollback record writes decided under mu, done in
	// flush outside it, in order.
	undoIO []func()
	// tally counts the vertices by standing.
	tally tally
}

// New prepares an engine for g.
func New(g *graph.Graph, opts Options) *Engine {
	e := &Engine{
		// The first convergence is always reported, even of an empty graph.
		changed: true,
		opts:    opts.withDefaults(),
		fights:  map[*node]struct{}{},
		pauses:  map[string]*status.Pause{},
		idle:    make(chan struct{}),
		wake:    make(chan struct{}, 1),
		pings:   make(chan chan struct{}),
	}
	e.queue = newWorkQueue(e.opts.GroupCommit)
	e.probeCtx, e.cancelProbes = context.WithCancel(context.Background())
	e.cond = sync.NewCond(&e.mu)
	e.install(g, nil)
	return e
}

// install builds the runtime nodes of g, reusing the nodes in keep (by
// vertex ID) for unchanged vertices. It holds no lock: callers do.
func (e *Engine) install(g *graph.Graph, keep map[string]*node) []*node {
	nodes := make([]*node, len(g.Vertices))
	var fresh []*node
	for i, v := range g.Vertices {
		if n, ok := keep[v.ID()]; ok {
			n.v.Manifest = v.Manifest
			nodes[i] = n
			continue
		}
		nodes[i] = &node{v: v, queueIndex: -1}
		fresh = append(fresh, nodes[i])
	}
	for pos, idx := range g.Order {
		nodes[idx].pos = pos
	}
	for i, n := range nodes {
		n.index = i
		n.parents = pick(nodes, g.Parents(i))
		n.children = pick(nodes, g.Children(i))
		n.subs = pick(nodes, g.Subscribers(i))
		n.undo = e.undoOf(n)
		n.commitGroups = e.joinsCommitGroups(n)
		n.after = pick(nodes, g.After(i))
		n.before = pick(nodes, g.Before(i))
		n.afterSeen = 0
	}
	e.g, e.nodes = g, nodes
	e.tally.stale = true
	e.byID = make(map[string]*node, len(nodes))
	for _, n := range nodes {
		e.byID[n.v.ID()] = n
	}
	return fresh
}

func pick(nodes []*node, idx []int) []*node {
	if len(idx) == 0 {
		return nil
	}
	out := make([]*node, len(idx))
	for i, j := range idx {
		out[i] = nodes[j]
	}
	return out
}

// Run converges the graph. Without Watch it returns once every vertex ran
// (or was blocked), with the run's summary. With Watch it keeps repairing
// until ctx is cancelled, then stops taking work, lets running applies
// finish within ShutdownGrace and returns.
func (e *Engine) Run(ctx context.Context) (Summary, error) {
	start := time.Now()
	closeStores, err := e.openStores()
	if err != nil {
		return Summary{}, err
	}
	defer closeStores()
	// Applies get their own context so a shutdown lets them finish within
	// the grace period instead of killing them mid-write.
	work, cancelWork := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelWork()
	if e.opts.Watch {
		if err := e.arm(ctx, e.nodes); err != nil {
			return Summary{}, err
		}
	}
	e.emitMu.Lock()
	e.sum.expect(len(e.nodes))
	e.emitMu.Unlock()
	var wg sync.WaitGroup
	for range e.opts.Workers {
		wg.Go(func() { e.worker(work) })
	}
	e.mu.Lock()
	idle := e.idle
	e.markAll(e.nodes, TriggerStartup)
	e.mu.Unlock()
	e.flush()

	if e.opts.Watch {
		e.timerLoop(ctx)
	} else {
		select {
		case <-idle:
		case <-ctx.Done():
		}
	}
	e.stop(&wg, cancelWork)
	e.mu.Lock()
	e.reportUnrun()
	e.mu.Unlock()
	e.flush()
	e.emitMu.Lock()
	defer e.emitMu.Unlock()
	e.sum.Start, e.sum.Duration = start, time.Since(start)
	return e.sum, ctx.Err()
}

// openStores opens what the state directory keeps for the graph, the
// pending refreshes and the rollback records, and gives the vertices what
// they hold; it returns what closes them.
func (e *Engine) openStores() (func(), error) {
	refreshes, err := openRefreshes(e.g, e.opts)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	e.refreshes = refreshes
	err = e.replay()
	e.mu.Unlock()
	if err == nil {
		e.rollbacks, err = openRollback(e)
	}
	if err != nil {
		refreshes.close()
		return nil, err
	}
	recs := e.readRecords(e.nodes)
	e.mu.Lock()
	e.applyRecords(recs)
	e.mu.Unlock()
	return func() {
		e.rollbacks.close()
		refreshes.close()
	}, nil
}

// stop ends the workers: no new work, running applies get ShutdownGrace.
func (e *Engine) stop(wg *sync.WaitGroup, cancelWork context.CancelFunc) {
	e.mu.Lock()
	e.stopping = true
	e.cond.Broadcast()
	e.mu.Unlock()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(e.opts.ShutdownGrace):
		e.opts.Logger.Warn("cancelling applies still running after the shutdown grace period", "grace", e.opts.ShutdownGrace)
		cancelWork()
		<-done
	}
	e.cancelProbes()
	e.probes.Wait()
	if e.opts.Watch {
		for _, n := range e.nodes {
			if n.unwatch != nil {
				n.unwatch()
			}
		}
		e.mu.Lock()
		for n := range e.fights {
			n.contest.closeWitness()
		}
		e.mu.Unlock()
	}
}

// markAll marks nodes dirty and schedules those that may run. Callers
// hold e.mu.
func (e *Engine) markAll(nodes []*node, t Trigger) {
	for _, n := range nodes {
		e.markDirty(n, t)
	}
	now := e.opts.Clock.Now()
	for _, n := range nodes {
		e.schedule(n, now)
	}
	e.checkIdle()
}

// mark records an event for n. It is what watchers call.
func (e *Engine) mark(n *node, t Trigger) {
	e.mu.Lock()
	if n.life.gone() || e.stopping {
		e.mu.Unlock()
		return
	}
	now := e.opts.Clock.Now()
	if t == TriggerSource {
		e.desiredChanged(n, now)
	}
	e.markDirty(n, t)
	e.schedule(n, now)
	blocked := len(e.outbox) > 0
	e.mu.Unlock()
	if blocked {
		e.flush()
	}
}

// schedule queues n if it may run now, remembers it for the timer loop if
// it waits on a back-off, or reports it blocked if a parent failed.
// Callers hold e.mu.
func (e *Engine) schedule(n *node, now time.Time) {
	if n.runnable(now) {
		if e.queue.add(n) {
			e.cond.Signal()
		}
		return
	}
	if n.life.marked() && n.waiting(now) {
		if e.queue.wait(n) {
			e.poke()
		}
		return
	}
	if n.life == dirty || n.life == queued {
		if failedBy := n.failedParents(); len(failedBy) > 0 {
			e.reportBlocked(n, failedBy)
		}
	}
}

// poke wakes the timer loop to recompute its next wake-up.
func (e *Engine) poke() {
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

// checkIdle fires the idle transition when nothing runs or waits to run.
// Callers hold e.mu.
func (e *Engine) checkIdle() {
	if !e.queue.idle() {
		return
	}
	close(e.idle)
	e.idle = make(chan struct{})
	if !e.changed {
		return
	}
	e.changed = false
	st := e.stateLocked()
	if st.Converged == st.Resources {
		e.lastConverged = e.opts.Clock.Now()
	}
	if e.opts.Watch && e.opts.OnSettled != nil {
		e.settled = &st
	}
}
