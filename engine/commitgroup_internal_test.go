package engine

import (
	"container/heap"
	"fmt"
	"sync"
	"testing"

	"github.com/reactive-ccm/ccm/graph"
)

// TestCommitGroupsWaitForRoom takes commit groups as workers do, without
// running them: each takes a quarter of the bound, and once the groups
// under way hold the bound, the next vertex that joins groups waits for
// room rather than run alone, with a sync of its own.
func TestCommitGroupsWaitForRoom(t *testing.T) {
	e := &Engine{opts: Options{GroupCommit: 8}.withDefaults(), g: &graph.Graph{}}
	e.cond = sync.NewCond(&e.mu)
	for i := range 10 {
		heap.Push(&e.ready, &node{v: &graph.Vertex{Type: "file", Name: fmt.Sprint(i)}, pos: i, commitGroups: true, dirty: true})
	}
	// take takes what a worker would.
	take := func() []*groupRun {
		n := heap.Pop(&e.ready).(*node)
		group := []*groupRun{{n: n, run: e.take(n)}}
		return append(group, e.commitFollowers(group)...)
	}
	var sizes []int
	var first []*groupRun
	for e.canTake() {
		group := take()
		first = append(first, group...)
		sizes = append(sizes, len(group))
	}
	if fmt.Sprint(sizes) != "[2 2 2 2]" || e.ready.Len() != 2 {
		t.Fatalf("groups taken %v, %d left; want four of two, two waiting", sizes, e.ready.Len())
	}
	// A group ends: its room lets the next one in.
	e.commitGroupDone(first[:2])
	if !e.canTake() || len(take()) != 2 {
		t.Fatal("the last two did not make a group once there was room")
	}
}
