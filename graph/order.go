package graph

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/graph/topo"
)

// CycleError reports a dependency cycle as a path of resources.
type CycleError struct {
	Pos  resources.Pos
	Path []string
}

func (e *CycleError) Error() string {
	return fmt.Sprintf("%s: dependency cycle: %s", e.Pos, strings.Join(e.Path, " -> "))
}

// sort reports every cycle as a path, or computes the order the
// vertices run in (see Graph.Order).
func (g *Graph) sort() error {
	if g.acyclic() {
		g.Order = g.writtenOrder()
		return nil
	}
	dg := simple.NewDirectedGraph()
	for i := range g.Vertices {
		dg.AddNode(simple.Node(i))
	}
	for _, e := range g.Edges {
		dg.SetEdge(dg.NewEdge(simple.Node(e.From), simple.Node(e.To)))
	}
	_, err := topo.SortStabilized(dg, nil)
	var unorderable topo.Unorderable
	if errors.As(err, &unorderable) {
		return g.cycles(dg, unorderable)
	}
	if err != nil {
		return err
	}
	g.Order = g.writtenOrder()
	return nil
}

func (g *Graph) cycles(dg *simple.DirectedGraph, sccs topo.Unorderable) error {
	var errs []error
	for _, scc := range sccs {
		path := g.cyclePath(dg, scc)
		errs = append(errs, &CycleError{Pos: g.Vertices[path[0]].Pos, Path: g.ids(path)})
	}
	return errors.Join(errs...)
}

// cyclePath finds a shortest cycle through the lowest-indexed member of an
// SCC by breadth-first search inside the SCC; enumerating every cycle would
// be exponential.
func (g *Graph) cyclePath(dg *simple.DirectedGraph, scc []graph.Node) []int {
	in := map[int64]bool{}
	ids := make([]int, len(scc))
	for i, n := range scc {
		in[n.ID()] = true
		ids[i] = int(n.ID())
	}
	sort.Ints(ids)
	start := int64(ids[0])
	prev := map[int64]int64{}
	queue := []int64{start}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for _, next := range graph.NodesOf(dg.From(cur)) {
			id := next.ID()
			if !in[id] {
				continue
			}
			if id == start {
				path := []int{int(start)}
				for at := cur; at != start; at = prev[at] {
					path = append(path, int(at))
				}
				for l, r := 1, len(path)-1; l < r; l, r = l+1, r-1 {
					path[l], path[r] = path[r], path[l]
				}
				return append(path, int(start))
			}
			if _, seen := prev[id]; !seen {
				prev[id] = cur
				queue = append(queue, id)
			}
		}
	}
	return ids
}

func (g *Graph) ids(idx []int) []string {
	out := make([]string, len(idx))
	for i, j := range idx {
		out[i] = g.Vertices[j].ID()
	}
	return out
}

// acyclic reports whether the graph has no cycle, by peeling off vertices
// that wait for nothing left (Kahn): a linear pass over the adjacency
// lists, where building gonum's graph to find the cycles costs as much as
// the rest of compiling. Only a graph with a cycle pays for that.
func (g *Graph) acyclic() bool {
	waiting := make([]int, len(g.Vertices))
	ready := make([]int, 0, len(g.Vertices))
	for v, ps := range g.parents {
		waiting[v] = len(ps)
		if len(ps) == 0 {
			ready = append(ready, v)
		}
	}
	done := 0
	for len(ready) > 0 {
		v := ready[len(ready)-1]
		ready = ready[:len(ready)-1]
		done++
		for _, c := range g.children[v] {
			if waiting[c]--; waiting[c] == 0 {
				ready = append(ready, c)
			}
		}
	}
	return done == len(g.Vertices)
}
