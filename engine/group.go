package engine

import (
	"context"
	"fmt"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/reactive-ccm/ccm/resources"
)

// maxGroup bounds a group: the goroutines its members run on, and the
// command line of a package manager taking them all.
const maxGroup = 64

// groupRun is one vertex's run among those a worker took at once: a
// vertex alone, or the members of a group. The worker fills ev, out and
// err when the run ends.
type groupRun struct {
	n   *node
	run run
	ev  *Event
	out resources.Outcome
	err error
}

// followers takes, after first, the vertices that run with it as one
// group (resources.Groupable): each written right after the one before,
// waiting for it in written order only, with first's group key, due to
// run now but for that order, and run for real (not noop, paused,
// controlled, health-check only or restoring). Under fail_on_error a
// one-shot run groups nothing, since a failure must stop what follows.
// Callers hold e.mu.
func (e *Engine) followers(first *groupRun) []*groupRun {
	g, ok := first.n.v.Resource.(resources.Groupable)
	if !ok || first.run.noop || first.run.undo.restore || first.n.v.Control != nil || e.monitorOnly(first.n) ||
		(e.g.FailOnError() && !e.opts.Watch) {
		return nil
	}
	key := g.GroupKey()
	if key == "" {
		return nil
	}
	now := e.opts.Clock.Now()
	members := []*node{first.n}
	var out []*groupRun
	for prev := first.n; len(members) < maxGroup; prev = members[len(members)-1] {
		c := writtenNext(prev)
		if c == nil || !e.joins(c, key, members, now) {
			break
		}
		e.queue.start(c)
		out = append(out, &groupRun{n: c, run: e.take(c)})
		members = append(members, c)
	}
	if len(out) == 0 {
		return nil
	}
	b := newBatch(len(members))
	first.run.group, first.run.slot = b, 0
	for i, f := range out {
		f.run.group, f.run.slot = b, i+1
	}
	return out
}

// writtenNext returns the vertex that comes right after n in written
// order when it waits for n alone, and only in written order; else nil.
func writtenNext(n *node) *node {
	for _, c := range n.before {
		if c.pos == n.pos+1 && len(c.after) == 1 {
			return c
		}
	}
	return nil
}

// joins reports whether c may join the group of members, the last of
// which it waits for in written order. Callers hold e.mu.
func (e *Engine) joins(c *node, key string, members []*node, now time.Time) bool {
	g, ok := c.v.Resource.(resources.Groupable)
	if !ok || g.GroupKey() != key {
		return false
	}
	for _, p := range c.parents {
		// An explicit edge among members orders them, and gates on
		// failure: they run one after the other.
		if slices.Contains(members, p) {
			return false
		}
	}
	return c.life == dirty && c.dueBarOrder(now) && !e.queue.halted && !c.restoring() &&
		c.v.Control == nil && !e.noop(c) && !e.monitorOnly(c) && e.pauseOf(c, now) == nil
}

// convergeAll runs what a worker took: a vertex alone, the members of a
// commit group one after another (relay), their writes made durable
// together, or each member of a group on its own goroutine, their applies
// made together.
func (e *Engine) convergeAll(ctx context.Context, group []*groupRun) {
	switch {
	case len(group) == 1:
		g := group[0]
		g.ev, g.out, g.err = e.converge(ctx, g.n, g.run)
		return
	case group[0].run.commit != nil:
		e.relay(ctx, group)
		return
	}
	var wg sync.WaitGroup
	for _, g := range group {
		wg.Go(func() {
			growStack()
			defer g.run.group.leave(ctx, g.run.slot)
			g.ev, g.out, g.err = e.converge(ctx, g.n, g.run)
		})
	}
	wg.Wait()
}

// growStack grows the calling goroutine's stack to the 8 KB a member's
// run takes (a file's check and write), in one copy while the stack is
// nearly empty. A new goroutine's stack starts at 2 KB and is copied each
// time it doubles, each frame on it adjusted: twice per member, an eighth
// of the instructions of a one-shot run of 1,000 files when each member
// had a goroutine of its own.
//
//go:noinline
func growStack() byte {
	var frame [5 << 10]byte
	return frame[stackIndex]
}

// stackIndex keeps growStack's frame from being optimised away.
var stackIndex int

// slotState is where a group member stands with its apply.
type slotState int

const (
	// slotRunning: checking, not yet asked to apply.
	slotRunning slotState = iota
	// slotAsked: waiting in Apply for the group's call.
	slotAsked
	// slotLeft: its run ended without asking.
	slotLeft
)

// batch makes the applies of a group's members in one ApplyGroup call,
// once every member has either asked to apply or finished without: a
// member whose check found nothing to do, or failed, holds no one back.
// A lone apply is the member's own Apply.
type batch struct {
	mu      sync.Mutex
	pending int
	state   []slotState
	res     []bounded
	reqs    []resources.Request
	results []resources.GroupResult
	// done is closed once the results are in.
	done chan struct{}
}

func newBatch(n int) *batch {
	return &batch{
		pending: n, state: make([]slotState, n), res: make([]bounded, n), reqs: make([]resources.Request, n),
		results: make([]resources.GroupResult, n), done: make(chan struct{}),
	}
}

// member is the resource a group member's cycle runs: its own, with its
// Apply made through the batch.
func (b *batch) member(slot int, res bounded) resources.Resource {
	return groupMember{bounded: res, b: b, slot: slot}
}

type groupMember struct {
	bounded
	b    *batch
	slot int
}

func (m groupMember) Apply(ctx context.Context, req resources.Request) (resources.Change, error) {
	b := m.b
	b.mu.Lock()
	b.res[m.slot], b.reqs[m.slot] = m.bounded, req
	last := b.settle(m.slot, slotAsked)
	b.mu.Unlock()
	if last {
		b.run(ctx)
	}
	<-b.done
	r := b.results[m.slot]
	return r.Change, r.Err
}

// leave records that slot's run ended; when it never asked to apply and
// was the last the others waited for, the group's call is made.
func (b *batch) leave(ctx context.Context, slot int) {
	b.mu.Lock()
	last := b.state[slot] == slotRunning && b.settle(slot, slotLeft)
	b.mu.Unlock()
	if last {
		b.run(ctx)
	}
}

// settle moves slot to st and reports whether no member is left running.
// Callers hold b.mu.
func (b *batch) settle(slot int, st slotState) bool {
	b.state[slot] = st
	b.pending--
	return b.pending == 0
}

// run makes the applies asked for: one alone with the member's own Apply,
// several with one ApplyGroup on the first, bounded by its deadline.
func (b *batch) run(ctx context.Context) {
	defer close(b.done)
	var slots []int
	for i, st := range b.state {
		if st == slotAsked {
			slots = append(slots, i)
		}
	}
	switch len(slots) {
	case 0:
		return
	case 1:
		i := slots[0]
		ch, err := b.res[i].Apply(ctx, b.reqs[i])
		b.results[i] = resources.GroupResult{Change: ch, Err: err}
		return
	}
	defer func() {
		if r := recover(); r != nil {
			err := fmt.Errorf("panic in the group apply of %d resources: %v\n%s", len(slots), r, debug.Stack())
			for _, i := range slots {
				b.results[i] = resources.GroupResult{Err: err}
			}
		}
	}()
	lead := b.res[slots[0]]
	ctx, cancel := context.WithTimeout(ctx, lead.d)
	defer cancel()
	members := make([]resources.GroupMember, len(slots))
	for k, i := range slots {
		members[k] = resources.GroupMember{Resource: b.res[i].Resource.(resources.Groupable), Request: b.reqs[i]}
	}
	results := lead.Resource.(resources.Groupable).ApplyGroup(ctx, members)
	for k, i := range slots {
		r := results[k]
		r.Err = lead.expired(ctx, "apply", r.Err)
		b.results[i] = r
	}
}
