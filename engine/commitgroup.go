package engine

import (
	"golang.org/x/sys/unix"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/commit"
)

// commitFollowers takes, after the vertex a worker took alone, when its
// resource joins commit groups (resources.GroupCommitter), the ready
// vertices right after it whose resources do too (workQueue.
// nextCommitGroup): they run together and share one sync of their writes,
// while other groups fill or rename. Callers hold e.mu.
func (e *Engine) commitFollowers(taken []*groupRun) []*groupRun {
	first := taken[0]
	if len(taken) > 1 || !first.n.commitGroups || (e.g.FailOnError() && !e.opts.Watch) {
		// Under fail_on_error a failure stops what has not started: a
		// group would have started hundreds.
		return nil
	}
	members := e.queue.nextCommitGroup()
	if len(members) == 0 {
		return nil
	}
	g := commit.NewGroup(len(members)+1, e.queue.toSync(), e.opts.OnGroupSync)
	first.run.commit = g
	out := make([]*groupRun, len(members))
	for i, n := range members {
		out[i] = &groupRun{n: n, run: e.take(n)}
		out[i].run.commit = g
	}
	return out
}

// commitGroupDone gives back the room a commit group held, once its
// members' outcomes are recorded. Callers hold e.mu.
func (e *Engine) commitGroupDone(group []*groupRun) {
	if group[0].run.commit == nil {
		return
	}
	e.queue.commitGroupDone(len(group))
	e.cond.Broadcast()
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
