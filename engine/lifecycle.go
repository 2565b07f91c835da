package engine

import "fmt"

// life is where a vertex stands in the scheduler: the one field that says
// whether it must be checked, waits, runs or is gone. What its last run
// found (phase), its back-offs and its standing for status are kept
// beside it. Every change of life goes through move, against the table
// below, so an impossible state is a programming error found at once,
// not a vertex that silently never runs again.
type life uint8

const (
	// fresh: installed by New or a reload, not yet marked by startup or
	// reload. Other marks are dropped: the first check, which looks at
	// the host as it is, follows anyway.
	fresh life = iota
	// idle: checked, and not marked since.
	idle
	// dirty: marked, waiting for its parents, the vertices written before
	// it, a back-off, or a reload's predecessor to finish.
	dirty
	// queued: in the work queue, ready for the next free worker.
	queued
	// running: a worker runs it.
	running
	// rerun: running, and marked again meanwhile: it runs once more after.
	rerun
	// blocked: dirty, and reported blocked because a parent failed; it
	// waits for the parent to converge.
	blocked
	// retiring: a reload dropped it while it ran.
	retiring
	// removed: a reload dropped it; it never runs again.
	removed
)

var lifeNames = [...]string{"fresh", "idle", "dirty", "queued", "running", "rerun", "blocked", "retiring", "removed"}

func (l life) String() string { return lifeNames[l] }

// marked reports whether the vertex has a check to come: marked and not
// yet taken by a worker, or marked again while it runs.
func (l life) marked() bool { return l == dirty || l == queued || l == rerun || l == blocked }

// busy reports whether a worker holds the vertex.
func (l life) busy() bool { return l == running || l == rerun || l == retiring }

// gone reports whether a reload dropped the vertex.
func (l life) gone() bool { return l == retiring || l == removed }

// event is what happens to a vertex.
type event uint8

const (
	// introduce: startup or a reload marks the vertex (its first mark).
	introduce event = iota
	// mark: anything else says "look again" (drift, a poll, a refresh,
	// a retry, a re-check).
	mark
	// enqueue: every condition to run holds; the work queue takes it.
	enqueue
	// unqueue: the work queue lets it go without running it (a halt).
	unqueue
	// take: a worker takes it, from the queue or as a group's member.
	take
	// settle: during its run, the events of its own write were found to
	// be all that marked it again.
	settle
	// finish: its run ended.
	finish
	// block: a parent failed; it is reported blocked.
	block
	// remove: a reload dropped it.
	remove
)

var eventNames = [...]string{"introduce", "mark", "enqueue", "unqueue", "take", "settle", "finish", "block", "remove"}

func (ev event) String() string { return eventNames[ev] }

// moves is every legal transition: moves[event][from] = to. A mark of a
// vertex already marked, running again or dropped changes nothing, and is
// legal; an event a state has no entry for is a programming error.
var moves = [...]map[life]life{
	introduce: {fresh: dirty, idle: dirty, dirty: dirty, queued: queued, running: rerun, rerun: rerun, blocked: blocked, retiring: retiring, removed: removed},
	mark:      {fresh: fresh, idle: dirty, dirty: dirty, queued: queued, running: rerun, rerun: rerun, blocked: blocked, retiring: retiring, removed: removed},
	enqueue:   {dirty: queued, blocked: queued},
	unqueue:   {queued: dirty},
	take:      {queued: running, dirty: running},
	settle:    {rerun: running},
	finish:    {running: idle, rerun: dirty, retiring: removed},
	block:     {dirty: blocked, queued: blocked},
	remove:    {fresh: removed, idle: removed, dirty: removed, queued: removed, blocked: removed, running: retiring, rerun: retiring},
}

// next returns the life ev leads l to; ok is false when ev cannot happen
// to a vertex in l.
func (l life) next(ev event) (to life, ok bool) {
	to, ok = moves[ev][l]
	return to, ok
}

// move applies ev to the vertex's life and returns the new one. An
// illegal transition panics: the scheduler's bookkeeping is wrong, and
// going on would lose a vertex or run it twice at once.
func (l *life) move(ev event) life {
	to, ok := l.next(ev)
	if !ok {
		panic(fmt.Sprintf("engine: a vertex that is %s cannot %s", *l, ev))
	}
	*l = to
	return to
}
