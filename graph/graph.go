package graph

import (
	"context"

	"github.com/reactive-ccm/ccm/resources"
)

// EdgeKind says why one resource runs before another.
type EdgeKind int

const (
	// Require: the child needs the parent converged first.
	Require EdgeKind = iota
	// Subscribe: as Require, and a change the parent applies refreshes the child.
	Subscribe
	// Auto: the parent manages a path the child lives under.
	Auto
)

func (k EdgeKind) String() string {
	switch k {
	case Require:
		return "require"
	case Subscribe:
		return "subscribe"
	}
	return "auto"
}

// Edge orders From before To.
type Edge struct {
	From, To int
	Kind     EdgeKind
}

// Vertex is one resource of the graph.
type Vertex struct {
	// Index is the resource's position in manifest order.
	Index    int
	Type     string
	Name     string
	Alias    string
	Pos      resources.Pos
	Resource resources.Resource
	Provider string
	Ensure   string
	// Fingerprint identifies the vertex's full desired state; two vertices
	// with the same ID and Fingerprint are the same resource.
	Fingerprint string
	// Manifest is the file the resource came from.
	Manifest *Manifest
	// Control, when set, decides just before each run whether the
	// resource is managed at all (`control: {if, unless}`); a false answer
	// reports it skipped.
	Control func(ctx context.Context) (bool, error)
	// Noop runs the resource in noop whatever the engine's mode: its
	// manifest was applied with noop (the apply resource's noop).
	Noop bool
	// External marks a vertex standing for a resource outside the
	// manifests (Options.External): it gates and refreshes its children,
	// and its own events are not reported.
	External bool
}

// ID is the vertex's reference, "type#name".
func (v *Vertex) ID() string { return v.Type + "#" + v.Name }

// Graph is a validated dependency DAG of resources.
type Graph struct {
	Vertices []*Vertex
	Edges    []Edge
	// Order lists vertex indices parents first, in manifest order wherever
	// no edge says otherwise.
	Order     []int
	Manifests []*Manifest
	parents   [][]int
	children  [][]int
	subs      [][]int
	// owns and uses hold each vertex's paths while edges are built.
	owns, uses [][]string
	// external resolves references to resources outside the manifests.
	external func(ref string) (External, error)
	// opts load the manifests apply resources include.
	opts Options
	// built holds the entries built, in vertex order.
	built []*entry
}

// Parents returns the indices of the vertices v waits for.
func (g *Graph) Parents(v int) []int { return g.parents[v] }

// Children returns the indices of the vertices that wait for v.
func (g *Graph) Children(v int) []int { return g.children[v] }

// Subscribers returns the indices of the vertices a change of v refreshes.
func (g *Graph) Subscribers(v int) []int { return g.subs[v] }

// FailOnError reports whether any manifest asks to stop at the first failure.
func (g *Graph) FailOnError() bool {
	for _, m := range g.Manifests {
		if m.FailOnError {
			return true
		}
	}
	return false
}

func (g *Graph) index() {
	n := len(g.Vertices)
	g.parents = make([][]int, n)
	g.children = make([][]int, n)
	g.subs = make([][]int, n)
	for _, e := range g.Edges {
		g.parents[e.To] = append(g.parents[e.To], e.From)
		g.children[e.From] = append(g.children[e.From], e.To)
		if e.Kind == Subscribe {
			g.subs[e.From] = append(g.subs[e.From], e.To)
		}
	}
}
