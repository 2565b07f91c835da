package engine

import (
	"context"
	"sync"
	"time"

	"github.com/reactive-ccm/ccm/resources/commit"
)

// relayPatience is how often a commit group's relay looks whether a
// member started since it last looked, and starts the members left when
// none did: a member blocked (a hung mount, a slow command) holds the
// others back by one to two of it.
var relayPatience = 10 * time.Millisecond

// relayRun runs the members of a commit group on the worker's goroutine,
// one after another, while each ends without waiting: once one waits in
// the group's sync for the others (commit.WithGroup's waiting), or runs
// longer than relayPatience, the members left start at once, each on a
// goroutine of its own, as all did before. A group that writes nothing,
// as in a run that finds everything in place, thus starts no goroutine,
// where one per member was a sixteenth of the instructions of a one-shot
// run of 1,000 files; a group that writes runs its writes side by side.
type relayRun struct {
	e     *Engine
	ctx   context.Context
	group []*groupRun
	wg    sync.WaitGroup

	mu sync.Mutex
	// next is the first member not started; seen is next at the last look
	// of watch, which timer runs.
	next, seen int
	timer      *time.Timer
}

// relay runs the members of a commit group and returns once all are done.
func (e *Engine) relay(ctx context.Context, group []*groupRun) {
	r := &relayRun{e: e, ctx: ctx, group: group, seen: -1}
	r.mu.Lock()
	r.timer = time.AfterFunc(relayPatience, r.watch)
	r.mu.Unlock()
	for {
		r.mu.Lock()
		if r.next == len(group) {
			r.mu.Unlock()
			break
		}
		g := group[r.next]
		r.next++
		r.mu.Unlock()
		r.member(g)
	}
	r.wg.Wait()
	r.timer.Stop()
}

// member runs g; if it waits in the sync, the members left start.
func (r *relayRun) member(g *groupRun) {
	c := g.run.commit
	defer c.Leave()
	ctx := commit.WithGroup(r.ctx, c, func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.release()
	})
	g.ev, g.out, g.err = r.e.converge(ctx, g.n, g.run)
}

// release starts each member left on a goroutine of its own. Callers
// hold r.mu.
func (r *relayRun) release() {
	for _, g := range r.group[r.next:] {
		r.wg.Go(func() {
			growStack()
			r.member(g)
		})
	}
	r.next = len(r.group)
}

// watch releases the members left when none started since its last
// look, and looks again after relayPatience while any are left.
func (r *relayRun) watch() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.next == len(r.group) {
		return
	}
	if r.next == r.seen {
		r.release()
		return
	}
	r.seen = r.next
	r.timer.Reset(relayPatience)
}
