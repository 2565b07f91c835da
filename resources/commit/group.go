package commit

import (
	"context"
	"sync"
)

// Durable is a file written but not yet durable: the temporary file of an
// atomic write, before its rename.
type Durable interface {
	// Sync makes the file durable (fsync(2)) and reports its own
	// write-back errors.
	Sync() error
	// Device identifies the filesystem the file is on, and Size is how
	// many bytes were written to it.
	Device() uint64
	Size() int64
	// SyncFS writes what was written on the file's filesystem to its
	// device (syncfs(2)) and reports that filesystem's errors.
	SyncFS() error
	// Settled reports, after a SyncFS of its filesystem, an error writing
	// the file's own data back, cheaply: its data is already written.
	Settled() error
}

// Group is the members of one group commit. Each member calls Leave
// exactly once, when its run is over, whether or not it called Sync.
// Safe for concurrent use.
type Group struct {
	// onSync, when set, is told of each round of two files or more and
	// how many files it made durable together.
	onSync func(files int)
	// dirty measures the machine's dirty page cache, for a round to tell
	// whether its filesystems hold other programs' data to write.
	dirty func() (int64, bool)
	// run is how many files the run still had to sync when the group
	// formed, the group's own included: a syncfs that writes other
	// programs' data back saves each of them that data's wait.
	run int

	mu sync.Mutex
	// members counts those that have not left; waiting holds the members
	// in Sync waiting for the next round, at most members of them.
	members int
	waiting []*waiter
}

// waiter is one member waiting in Sync.
type waiter struct {
	d Durable
	// done is closed when the round the waiter was in has started; the
	// round sets synced and err before.
	done chan struct{}
	// synced is set when the round synced the file's filesystem, whose
	// error err is.
	synced bool
	err    error
}

// NewGroup returns a group of members, formed when the run had run files
// still to sync, its members' included; onSync may be nil.
func NewGroup(members, run int, onSync func(files int)) *Group {
	return &Group{members: members, run: max(run, members), onSync: onSync, dirty: dirtyBytes}
}

// Leave records that a member's run is over; the members still waiting
// may now be all that is left, whose round then runs in the caller.
func (g *Group) Leave() {
	g.mu.Lock()
	g.members--
	round := g.takeRound()
	g.mu.Unlock()
	g.commit(round)
}

// sync makes d durable together with the other members' files and returns
// once it is, or with the error that makes it not durable. A member whose
// ctx ends before its round starts returns ctx's error. waiting, when not
// nil, is called before the member waits for the others.
func (g *Group) sync(ctx context.Context, d Durable, waiting func()) error {
	w := &waiter{d: d, done: make(chan struct{})}
	g.mu.Lock()
	g.waiting = append(g.waiting, w)
	round := g.takeRound()
	g.mu.Unlock()
	if round == nil && waiting != nil {
		waiting()
	}
	g.commit(round)
	select {
	case <-w.done:
	case <-ctx.Done():
		if g.withdraw(w) {
			return ctx.Err()
		}
		<-w.done
	}
	if w.synced && w.err == nil {
		return d.Settled()
	}
	// Its own fsync, which also tells a file's error from its
	// filesystem's.
	return d.Sync()
}

// takeRound returns the waiting members when no other member can still
// join them. Callers hold g.mu.
func (g *Group) takeRound() []*waiter {
	if len(g.waiting) == 0 || len(g.waiting) < g.members {
		return nil
	}
	round := g.waiting
	g.waiting = nil
	return round
}

// withdraw takes w out of the waiting members, unless its round started.
func (g *Group) withdraw(w *waiter) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	for i, o := range g.waiting {
		if o == w {
			g.waiting = append(g.waiting[:i], g.waiting[i+1:]...)
			return true
		}
	}
	return false
}

// commit starts a round. When the dirty page cache holds little but the
// round's own files, or no more other data than syncing the run's files
// one by one would cost, one syncfs of each filesystem makes them all
// durable at the cost of one sync; otherwise, so as not to wait for other
// programs' data, each member syncs its own file, all at once.
func (g *Group) commit(round []*waiter) {
	defer func() {
		for _, w := range round {
			close(w.done)
		}
	}()
	if len(round) < 2 {
		return
	}
	if g.onSync != nil {
		g.onSync(len(round))
	}
	if !g.littleDirty(round) {
		return
	}
	for _, ws := range byDevice(round) {
		err := ws[0].d.SyncFS()
		for _, w := range ws {
			w.synced, w.err = true, err
		}
	}
}

// byDevice sorts a round's waiters by filesystem.
func byDevice(round []*waiter) map[uint64][]*waiter {
	m := map[uint64][]*waiter{}
	for _, w := range round {
		dev := w.d.Device()
		m[dev] = append(m[dev], w)
	}
	return m
}
