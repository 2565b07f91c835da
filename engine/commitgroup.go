package engine

import (
	"container/heap"

	"golang.org/x/sys/unix"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/commit"
)

// commitFollowers takes, after the vertex a worker took alone, when its
// resource joins commit groups (resources.GroupCommitter), the ready
// vertices right after it whose resources do too, up to a quarter of
// Options.GroupCommit: they run together and share one sync of their
// writes, while other groups fill or rename. Any two ready vertices may
// run at once, so a commit group changes no order. Callers hold e.mu.
func (e *Engine) commitFollowers(taken []*groupRun) []*groupRun {
	first := taken[0]
	if len(taken) > 1 || !first.n.commitGroups || (e.g.FailOnError() && !e.opts.Watch) {
		// Under fail_on_error a failure stops what has not started: a
		// group would have started hundreds.
		return nil
	}
	room := min(e.opts.GroupCommit-e.inCommitGroups, max(1, e.opts.GroupCommit/4))
	var out []*groupRun
	for len(out)+1 < room && e.ready.Len() > 0 && e.ready[0].commitGroups {
		n := heap.Pop(&e.ready).(*node)
		out = append(out, &groupRun{n: n, run: e.take(n)})
	}
	if len(out) == 0 {
		return nil
	}
	g := commit.NewGroup(len(out)+1, e.opts.OnGroupSync)
	first.run.commit = g
	for _, f := range out {
		f.run.commit = g
	}
	e.inCommitGroups += len(out) + 1
	return out
}

// commitGroupDone gives back the room a commit group held, once its
// members' outcomes are recorded. Callers hold e.mu.
func (e *Engine) commitGroupDone(group []*groupRun) {
	if group[0].run.commit == nil {
		return
	}
	e.inCommitGroups -= len(group)
	e.cond.Broadcast()
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
