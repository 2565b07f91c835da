package graph

import (
	"slices"
)

// writtenOrder lists the vertices in manifest order, except that the
// parents a vertex waits for and that are not listed yet come just before
// it, themselves in that order: a require or subscribe of a later resource
// moves that resource earlier, as far as needed and no further. The
// graph must be acyclic.
func (g *Graph) writtenOrder() []int {
	order := make([]int, 0, len(g.Vertices))
	placed := make([]bool, len(g.Vertices))
	var place func(v int)
	place = func(v int) {
		placed[v] = true
		parents := g.parents[v]
		if !slices.IsSorted(parents) {
			parents = slices.Sorted(slices.Values(parents))
		}
		for _, p := range parents {
			if !placed[p] {
				place(p)
			}
		}
		order = append(order, v)
	}
	for v := range g.Vertices {
		if !placed[v] {
			place(v)
		}
	}
	return order
}

// orderEdges makes each vertex wait for the ones before it in Order, by
// stages: a stage is one vertex, or a run of consecutive independent
// vertices, which wait for the stage before theirs and not for each other.
// Everything else waits for every vertex of the stage before it, and so,
// through it, for everything before. Vertices of a parallel manifest, and
// external ones, take no part. An explicit or automatic edge between two vertices stands for
// the order edge. Under fail_on_error every stage is one vertex: a
// failure must stop the resources written after it, so none of them may
// start beside it.
func (g *Graph) orderEdges() {
	var prev, stage []int
	independent := false
	stopAtFailure := g.FailOnError()
	for _, v := range g.Order {
		vx := g.Vertices[v]
		if vx.External || vx.Manifest.Parallel {
			continue
		}
		alone := !vx.Independent || stopAtFailure
		if alone || !independent {
			prev, stage = stage, nil
			independent = !alone
		}
		stage = append(stage, v)
		for _, p := range prev {
			if slices.Contains(g.parents[v], p) {
				continue
			}
			g.Edges = append(g.Edges, Edge{From: p, To: v, Kind: Order})
			g.after[v] = append(g.after[v], p)
			g.before[p] = append(g.before[p], v)
		}
	}
}
