package engine

import (
	"container/heap"
	"fmt"
	"testing"

	"github.com/reactive-ccm/ccm/graph"
)

// TestGroupsWaitForRoom takes commit groups as workers do, without
// running them: each takes a quarter of the bound, and once the groups
// under way hold the bound, the next vertex that joins groups waits for
// room rather than run alone, with a sync of its own.
func TestGroupsWaitForRoom(t *testing.T) {
	e := &Engine{opts: Options{GroupCommit: 8}.withDefaults(), g: &graph.Graph{}}
	for i := range 10 {
		heap.Push(&e.ready, &node{v: &graph.Vertex{Type: "file", Name: fmt.Sprint(i)}, pos: i, commitGroups: true, dirty: true})
	}
	var sizes []int
	for e.canTake() {
		sizes = append(sizes, len(e.takeCommitGroup()))
	}
	if fmt.Sprint(sizes) != "[2 2 2 2]" || e.ready.Len() != 2 {
		t.Fatalf("groups taken %v, %d left; want four of two, two waiting", sizes, e.ready.Len())
	}
	// A group ends (runCommitGroup): its room lets the next one in.
	e.inCommitGroups -= 2
	if !e.canTake() || len(e.takeCommitGroup()) != 2 {
		t.Fatal("the last two did not make a group once there was room")
	}
}
