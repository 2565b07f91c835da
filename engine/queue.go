package engine

import (
	"time"

	"github.com/reactive-ccm/ccm/internal/pqueue"
)

// workQueue holds the vertices waiting for a worker and counts those that
// run, on client-go's workqueue model: a vertex is in it at most once (its
// life says queued), a vertex marked again while it runs is not queued
// beside itself but runs exactly once more when its run ends (rerun), and
// next is the one place that decides what runs next: the ready vertex
// written first, unless the run was halted or the commit groups under way
// are full. Guarded by Engine.mu.
type workQueue struct {
	// ready holds the queued vertices, lowest topological position
	// first, so unconstrained vertices start in manifest order.
	ready pqueue.Queue[*node]
	// waiting holds dirty vertices held back by a retry or contest
	// back-off, for the timer loop to queue once it expires.
	waiting map[*node]struct{}
	// running counts the vertices workers hold, and the health probes.
	running int
	// halted is set by a failure under fail_on_error in a one-shot run:
	// nothing more is queued or taken.
	halted bool
	// groupCommit bounds the vertices in commit groups under way
	// (Options.GroupCommit); inGroups counts them, readyGroups the ready
	// vertices that join commit groups.
	groupCommit, inGroups, readyGroups int
}

func newWorkQueue(groupCommit int) workQueue {
	return workQueue{waiting: map[*node]struct{}{}, groupCommit: groupCommit,
		ready: pqueue.New(func(a, b *node) bool { return a.pos < b.pos }, func(n *node) *int { return &n.queueIndex })}
}

// add queues n, which may run now, unless the run was halted; it reports
// whether n was queued.
func (q *workQueue) add(n *node) bool {
	if q.halted {
		return false
	}
	n.life.move(enqueue)
	q.ready.Push(n)
	if n.commitGroups {
		q.readyGroups++
	}
	return true
}

// remove takes n out of the queue, if it is there.
func (q *workQueue) remove(n *node) {
	if n.life == queued {
		q.ready.Remove(n)
		q.left(n)
		n.life.move(unqueue)
	}
}

// next takes the vertex to run next, or nil when there is none the rules
// let run: the queue is empty, the run was halted, or the first ready
// vertex joins commit groups and the groups under way hold GroupCommit
// vertices (it then waits for room rather than run alone, with a sync of
// its own).
func (q *workQueue) next() *node {
	if q.halted || q.ready.Len() == 0 {
		return nil
	}
	if q.ready.Peek().commitGroups && q.inGroups >= q.groupCommit {
		return nil
	}
	n := q.pop()
	q.start(n)
	return n
}

// pop takes the first ready vertex out of the queue.
func (q *workQueue) pop() *node {
	n := q.ready.Pop()
	q.left(n)
	return n
}

// left counts n out of the ready vertices.
func (q *workQueue) left(n *node) {
	if n.commitGroups {
		q.readyGroups--
	}
}

// start marks n, taken from the queue or as a member of a group that
// never was queued, as held by a worker.
func (q *workQueue) start(n *node) {
	n.life.move(take)
	q.running++
}

// done ends n's run; it reports whether n was marked again meanwhile and
// so must be scheduled again.
func (q *workQueue) done(n *node) (again bool) {
	q.running--
	return n.life.move(finish) == dirty
}

// probing and probed count a health probe (Engine.probe) in and out of
// the work held: the queue is not idle while one runs.
func (q *workQueue) probing() { q.running++ }
func (q *workQueue) probed()  { q.running-- }

// nextCommitGroup takes, after a vertex just taken alone that joins
// commit groups, the ready vertices right after it that join them too,
// so that they all share one sync: a group takes at most a quarter of
// GroupCommit, and no more than the room left. Any two ready vertices may
// run at once, so a commit group changes no order.
func (q *workQueue) nextCommitGroup() []*node {
	room := min(q.groupCommit-q.inGroups, max(1, q.groupCommit/4))
	var out []*node
	for len(out)+1 < room && q.ready.Len() > 0 && q.ready.Peek().commitGroups {
		n := q.pop()
		q.start(n)
		out = append(out, n)
	}
	if len(out) > 0 {
		q.inGroups += len(out) + 1
	}
	return out
}

// toSync counts the vertices that may still join commit groups: in the
// groups under way and ready. A group's sync decides from it whether
// flushing other programs' writes once is worth it (commit.NewGroup).
func (q *workQueue) toSync() int { return q.inGroups + q.readyGroups }

// commitGroupDone gives back the room a commit group of size held.
func (q *workQueue) commitGroupDone(size int) { q.inGroups -= size }

// halt stops a one-shot run after a failure under fail_on_error: what
// waits in the queue, taken by no worker yet, goes back to waiting and is
// reported not run, however many workers are free.
func (q *workQueue) halt() {
	q.halted = true
	for q.ready.Len() > 0 {
		q.pop().life.move(unqueue)
	}
}

// idle reports whether nothing runs or waits to run; vertices waiting on
// a back-off do not count.
func (q *workQueue) idle() bool { return q.running == 0 && q.ready.Len() == 0 }

// wait remembers n, dirty and held back by a back-off, for the timer
// loop; it reports whether n was not remembered already.
func (q *workQueue) wait(n *node) bool {
	if _, ok := q.waiting[n]; ok {
		return false
	}
	q.waiting[n] = struct{}{}
	return true
}

// expired forgets the waiting vertices that no longer wait at now and
// returns those whose back-off is over; the ones that left otherwise
// (checked meanwhile, or removed) are dropped.
func (q *workQueue) expired(now time.Time) []*node {
	var out []*node
	for n := range q.waiting {
		switch {
		case n.life.gone() || !n.life.marked():
			delete(q.waiting, n)
		case !n.waiting(now):
			delete(q.waiting, n)
			out = append(out, n)
		}
	}
	return out
}
