package engine

import (
	"context"
	"sync"
	"time"

	"github.com/reactive-ccm/ccm/resources/commit"
)

// relayPatience is how often a commit group's relay looks whether a
// member started since it last looked, and starts the members after a
// member that did not beside it: a member blocked (a hung mount, a slow
// command) holds the others back by one to two of it.
var relayPatience = 10 * time.Millisecond

// relayRun runs the members of a commit group one after another, on as
// few goroutines as it can: the worker's own, until a member waits in
// the group's sync for the others (commit.WithGroup's waiting) or runs
// longer than relayPatience; then the members not started yet go on, on a
// goroutine of their own (a leg). A group that writes nothing, as in a
// run that finds everything in place, thus starts no goroutine, where one
// per member was a sixteenth of the instructions of a one-shot run of
// 1,000 files; a member waiting in the sync holds its goroutine, as before.
type relayRun struct {
	e     *Engine
	ctx   context.Context
	group []*groupRun
	wg    sync.WaitGroup

	mu sync.Mutex
	// next is the first member not started; leg numbers the goroutine
	// that starts it, the others end after their member.
	next, leg int
	// seen is next at the last look of watch, which timer runs.
	seen  int
	timer *time.Timer
}

// relay runs the members of a commit group and returns once all are done.
func (e *Engine) relay(ctx context.Context, group []*groupRun) {
	r := &relayRun{e: e, ctx: ctx, group: group, seen: -1}
	r.mu.Lock()
	r.timer = time.AfterFunc(relayPatience, r.watch)
	r.mu.Unlock()
	r.run(0)
	r.wg.Wait()
	r.timer.Stop()
}

// run starts the members one after another as leg, until another leg
// takes over.
func (r *relayRun) run(leg int) {
	for {
		r.mu.Lock()
		if r.leg != leg || r.next == len(r.group) {
			r.mu.Unlock()
			return
		}
		g := r.group[r.next]
		r.next++
		r.mu.Unlock()
		r.member(g, leg)
	}
}

// member runs g, a member started by leg.
func (r *relayRun) member(g *groupRun, leg int) {
	c := g.run.commit
	defer c.Leave()
	ctx := commit.WithGroup(r.ctx, c, func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.handOver(leg)
	})
	g.ev, g.out, g.err = r.e.converge(ctx, g.n, g.run)
}

// handOver has a new leg start the members left, when leg still starts
// them. Callers hold r.mu.
func (r *relayRun) handOver(leg int) {
	if r.leg != leg || r.next == len(r.group) {
		return
	}
	r.leg++
	next := r.leg
	r.wg.Go(func() {
		growStack()
		r.run(next)
	})
}

// watch hands over when no member started since its last look, and looks
// again after relayPatience while members are left to start.
func (r *relayRun) watch() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.next == len(r.group) {
		return
	}
	if r.next == r.seen {
		r.handOver(r.leg)
	}
	r.seen = r.next
	r.timer.Reset(relayPatience)
}
