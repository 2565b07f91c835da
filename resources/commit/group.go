package commit

import (
	"context"
	"sync"
)

// Durable is a file written but not yet durable: the temporary file of an
// atomic write, before its rename.
type Durable interface {
	// StartSync starts writing the file's data to its device and returns
	// without waiting (sync_file_range(2)), so the members of a round
	// send their writes to the device together. It is a hint: Sync,
	// which follows, writes the file back all the same and reports its
	// errors.
	StartSync()
	// Sync makes the file durable (fsync(2)) and reports its own
	// write-back errors.
	Sync() error
}

// Group is the members of one group commit. Each member calls Leave
// exactly once, when its run is over, whether or not it called Sync.
// Safe for concurrent use.
type Group struct {
	// onSync, when set, is told of each round of two files or more and
	// how many files it made durable together.
	onSync func(files int)

	mu sync.Mutex
	// members counts those that have not left; waiting holds the members
	// in Sync waiting for the next round, at most members of them.
	members int
	// waiting is closed when their round starts.
	waiting []chan struct{}
}

// NewGroup returns a group of members; onSync may be nil.
func NewGroup(members int, onSync func(files int)) *Group {
	return &Group{members: members, onSync: onSync}
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

// Sync makes d durable together with the other members' files and returns
// once it is, or with the error that makes it not durable. A member whose
// ctx ends before its round starts returns ctx's error.
func (g *Group) Sync(ctx context.Context, d Durable) error {
	d.StartSync()
	w := make(chan struct{})
	g.mu.Lock()
	g.waiting = append(g.waiting, w)
	round := g.takeRound()
	g.mu.Unlock()
	g.commit(round)
	select {
	case <-w:
	case <-ctx.Done():
		if g.withdraw(w) {
			return ctx.Err()
		}
	}
	return d.Sync()
}

// takeRound returns the waiting members when no other member can still
// join them. Callers hold g.mu.
func (g *Group) takeRound() []chan struct{} {
	if len(g.waiting) == 0 || len(g.waiting) < g.members {
		return nil
	}
	round := g.waiting
	g.waiting = nil
	return round
}

// withdraw takes w out of the waiting members, unless its round started.
func (g *Group) withdraw(w chan struct{}) bool {
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

// commit starts a round: its members, their write-back started, each
// sync their own file at once.
func (g *Group) commit(round []chan struct{}) {
	if len(round) > 1 && g.onSync != nil {
		g.onSync(len(round))
	}
	for _, w := range round {
		close(w)
	}
}
