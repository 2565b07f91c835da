package engine

import (
	"fmt"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/graph"
)

// vertices makes n dirty nodes at positions 0..n-1; commit sets whether
// they join commit groups.
func vertices(n int, commit bool) []*node {
	out := make([]*node, n)
	for i := range out {
		out[i] = &node{v: &graph.Vertex{Type: "file", Name: fmt.Sprint(i)}, links: links{pos: i}, commitGroups: commit, life: dirty, queueIndex: -1}
	}
	return out
}

func names(nodes []*node) string {
	s := ""
	for _, n := range nodes {
		s += n.v.Name
	}
	return s
}

func TestQueueHandsOutInWrittenOrder(t *testing.T) {
	q := newWorkQueue(8)
	ns := vertices(5, false)
	for _, i := range []int{3, 0, 4, 1, 2} {
		if !q.add(ns[i]) || ns[i].life != queued {
			t.Fatalf("vertex %d not queued: %s", i, ns[i].life)
		}
	}
	var got []*node
	for n := q.next(); n != nil; n = q.next() {
		if n.life != running {
			t.Fatalf("vertex %s handed out %s", n.v.Name, n.life)
		}
		got = append(got, n)
	}
	if names(got) != "01234" || q.running != 5 || q.idle() {
		t.Fatalf("handed out %s, %d running", names(got), q.running)
	}
	for _, n := range got {
		if q.done(n) {
			t.Fatalf("vertex %s not marked again asked to run again", n.v.Name)
		}
	}
	if !q.idle() {
		t.Fatal("not idle once every run is done")
	}
}

// TestQueueRunsAVertexMarkedWhileRunningOnceMore: a mark while a vertex
// runs does not queue it beside itself; its run's end says to schedule
// it again, once.
func TestQueueRunsAVertexMarkedWhileRunningOnceMore(t *testing.T) {
	q := newWorkQueue(8)
	n := vertices(1, false)[0]
	q.add(n)
	q.next()
	n.markDirty(TriggerDrift, time.Time{})
	n.markDirty(TriggerDrift, time.Time{})
	if n.life != rerun || q.ready.Len() != 0 {
		t.Fatalf("marked while running: %s, %d queued", n.life, q.ready.Len())
	}
	if !q.done(n) || n.life != dirty {
		t.Fatalf("the run's end did not ask for one more: %s", n.life)
	}
}

// TestQueueHalt: under fail_on_error a failure empties the queue, the
// vertices in it go back to dirty (to be reported not run), and nothing
// more is queued or handed out.
func TestQueueHalt(t *testing.T) {
	q := newWorkQueue(8)
	ns := vertices(4, false)
	for _, n := range ns[:3] {
		q.add(n)
	}
	first := q.next()
	q.halt()
	if q.ready.Len() != 0 || ns[1].life != dirty || ns[2].life != dirty {
		t.Fatalf("halt left %d queued; lives %s %s", q.ready.Len(), ns[1].life, ns[2].life)
	}
	if q.add(ns[3]) || ns[3].life != dirty || q.next() != nil {
		t.Fatal("a halted queue took or handed out work")
	}
	if q.done(first); !q.idle() {
		t.Fatal("the run under way at the halt did not end")
	}
}

func TestQueueRemove(t *testing.T) {
	q := newWorkQueue(8)
	ns := vertices(3, false)
	for _, n := range ns {
		q.add(n)
	}
	q.remove(ns[1])
	q.remove(ns[1])
	if ns[1].life != dirty || ns[1].queueIndex != -1 {
		t.Fatalf("removed vertex is %s at %d", ns[1].life, ns[1].queueIndex)
	}
	if a, b := q.next(), q.next(); a != ns[0] || b != ns[2] || q.next() != nil {
		t.Fatal("the queue handed out a removed vertex or lost another")
	}
}

// TestQueueCommitGroupsWaitForRoom takes commit groups as workers do,
// without running them: each takes a quarter of the bound, and once the
// groups under way hold the bound, the next vertex that joins groups
// waits for room rather than run alone, with a sync of its own.
func TestQueueCommitGroupsWaitForRoom(t *testing.T) {
	q := newWorkQueue(8)
	for _, n := range vertices(10, true) {
		q.add(n)
	}
	var sizes []int
	var groups [][]*node
	for n := q.next(); n != nil; n = q.next() {
		group := append([]*node{n}, q.nextCommitGroup()...)
		groups = append(groups, group)
		sizes = append(sizes, len(group))
	}
	if fmt.Sprint(sizes) != "[2 2 2 2]" || q.ready.Len() != 2 {
		t.Fatalf("groups taken %v, %d left; want four of two, two waiting", sizes, q.ready.Len())
	}
	// A group ends: its room lets the next one in.
	q.commitGroupDone(len(groups[0]))
	n := q.next()
	if n == nil || len(q.nextCommitGroup()) != 1 {
		t.Fatal("the last two did not make a group once there was room")
	}
}

// TestQueueCountsWhatStillSyncs: a commit group is told how many files
// its run has still to sync, in the groups under way and ready to join
// one, and not the vertices that join none, removed or halted.
func TestQueueCountsWhatStillSyncs(t *testing.T) {
	q := newWorkQueue(8)
	ns := append(vertices(6, true), vertices(3, false)...)
	for _, n := range ns {
		q.add(n)
	}
	q.remove(ns[5])
	q.remove(ns[6])
	if got := q.toSync(); got != 5 {
		t.Fatalf("%d to sync before any group, want the 5 queued that join groups", got)
	}
	q.next()
	q.nextCommitGroup()
	if got := q.toSync(); got != 5 {
		t.Fatalf("%d to sync with a group of 2 under way, want it and the 3 ready", got)
	}
	q.commitGroupDone(2)
	if got := q.toSync(); got != 3 {
		t.Fatalf("%d to sync once the group ended, want the 3 ready", got)
	}
	q.halt()
	if got := q.toSync(); got != 0 {
		t.Fatalf("%d to sync after a halt, want none", got)
	}
}

// TestQueueVertexAloneAfterGroups: a vertex that joins no commit group
// runs whatever room the groups leave.
func TestQueueVertexAloneAfterGroups(t *testing.T) {
	q := newWorkQueue(8)
	ns := vertices(9, true)
	ns[8].commitGroups = false
	for _, n := range ns {
		q.add(n)
	}
	for range 4 {
		if q.next(); len(q.nextCommitGroup()) != 1 {
			t.Fatal("commit groups not of two")
		}
	}
	if n := q.next(); n != ns[8] {
		t.Fatalf("vertex alone not handed out with the groups full: %v", n)
	}
}

// TestQueueWaiting: a vertex held back by a back-off is remembered once,
// handed back when it expires, and forgotten when it was checked or
// removed meanwhile.
func TestQueueWaiting(t *testing.T) {
	q := newWorkQueue(8)
	now := time.Unix(1000, 0)
	ns := vertices(3, false)
	for i, n := range ns {
		n.retry.until = now.Add(time.Duration(i+1) * time.Second)
		if !q.wait(n) || q.wait(n) {
			t.Fatal("wait did not remember a vertex exactly once")
		}
	}
	ns[1].life = idle
	ns[2].life = removed
	if got := q.expired(now); len(got) != 0 || len(q.waiting) != 1 {
		t.Fatalf("expired before the back-off: %v; %d left waiting", got, len(q.waiting))
	}
	if got := q.expired(now.Add(time.Second)); len(got) != 1 || got[0] != ns[0] || len(q.waiting) != 0 {
		t.Fatalf("expired %v, %d left waiting", got, len(q.waiting))
	}
}
