package engine

import (
	"container/heap"
	"context"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/commit"
)

// takeCommitGroup pops the next ready vertex for a run and, when its resource joins
// commit groups (resources.GroupCommitter), the ready vertices right after
// it whose resources do too, up to a quarter of Options.GroupCommit: they
// run together and share one sync of their writes, while other groups
// fill or rename. Any two ready vertices may run at once, so a group
// changes no order. Callers hold e.mu.
func (e *Engine) takeCommitGroup() []*job {
	n := heap.Pop(&e.ready).(*node)
	jobs := []*job{e.start(n)}
	if !n.commitGroups || (e.g.FailOnError() && !e.opts.Watch) {
		// Under fail_on_error a failure stops what has not started: a
		// group would have started hundreds.
		return jobs
	}
	room := min(e.opts.GroupCommit-e.inCommitGroups, max(1, e.opts.GroupCommit/4))
	for len(jobs) < room && e.ready.Len() > 0 && e.ready[0].commitGroups {
		jobs = append(jobs, e.start(heap.Pop(&e.ready).(*node)))
	}
	if len(jobs) > 1 {
		e.inCommitGroups += len(jobs)
	}
	return jobs
}

// canTake reports whether a worker may take the next ready vertex: one
// that joins commit groups waits while the groups under way hold
// Options.GroupCommit vertices, rather than run alone with a sync of its
// own. Callers hold e.mu.
func (e *Engine) canTake() bool {
	if e.ready.Len() == 0 {
		return false
	}
	return !e.ready[0].commitGroups || e.inCommitGroups < e.opts.GroupCommit
}

// runCommitGroup runs jobs at once, as the members of one commit group,
// and records their outcomes together once all are done: the members,
// released together by their sync, would otherwise all queue for e.mu.
func (e *Engine) runCommitGroup(ctx context.Context, jobs []*job) {
	g := commit.NewGroup(len(jobs), e.opts.OnGroupSync)
	ctx = commit.WithGroup(ctx, g)
	var wg sync.WaitGroup
	for _, j := range jobs {
		wg.Go(func() {
			defer g.Leave()
			j.ev, j.out, j.err = e.converge(ctx, j.n, j.r)
		})
	}
	wg.Wait()
	e.mu.Lock()
	for _, j := range jobs {
		e.record(j)
	}
	e.inCommitGroups -= len(jobs)
	e.cond.Broadcast()
	e.checkIdle()
	e.mu.Unlock()
	e.flush()
}

// joinsCommitGroups reports whether n's resource joins commit groups,
// unless n never writes: in noop, or when only health checks run.
func (e *Engine) joinsCommitGroups(n *node) bool {
	c, ok := n.v.Resource.(resources.GroupCommitter)
	return ok && c.GroupCommit() && !e.noop(n) && !e.monitorOnly(n)
}

// defaultGroupCommit is Options.GroupCommit's default: 256 vertices,
// or as many as take a quarter of the descriptors the process may open.
func defaultGroupCommit() int {
	const most, perMember = 256, 3
	var lim unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &lim); err != nil {
		return 1
	}
	return int(max(1, min(most, lim.Cur/4/perMember)))
}
