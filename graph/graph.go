package graph

import (
	"context"

	"github.com/reactive-ccm/ccm/internal/tree"
	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/registration"
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
	// Order: the child is written after the parent. It waits for the
	// parent to finish, whatever the outcome: order never blocks.
	Order
)

func (k EdgeKind) String() string {
	switch k {
	case Require:
		return "require"
	case Subscribe:
		return "subscribe"
	case Order:
		return "order"
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
	// Secrets is set for a resource marked `sensitive: true`: the values
	// reports must hide, recorded as the resource resolves them.
	Secrets *resources.Secrets
	// Templated holds what the resource's templates resolved to, which
	// its errors leave out.
	Templated *resources.Templated
	// Independent is true when the resource may run at once with the
	// independent resources written next to it (see resources.Instance).
	Independent bool
	// props are the properties as written, for Properties.
	props asWritten
	// id is ID's text, made once when the graph is built: the engine asks
	// for it at each run and each event.
	id string
	// hidden are the properties of a sensitive resource that Properties
	// shows as redacted whole (SecretKeys).
	hidden []string
	// Control, when set, decides just before each run whether the
	// resource is managed at all (`control: {if, unless}`); a false answer
	// reports it skipped.
	Control func(ctx context.Context) (bool, error)
	// Noop runs the resource in noop whatever the engine's mode: its
	// manifest was applied with noop (the apply resource's noop).
	Noop bool
	// HealthCheckOnly runs only the resource's health checks whatever the
	// engine's mode: its manifest was applied with health_check_only.
	HealthCheckOnly bool
	// Pending, on an apply resource, is its child manifest while the
	// graph holds none of its resources: the engine reads it when the
	// resource runs (Graph.Expand). Nil otherwise.
	Pending *PendingChild
	// External marks a vertex standing for a resource outside the
	// manifests (Options.External): it gates and refreshes its children,
	// and its own events are not reported.
	External bool
	// Health lists the resource's health checks, in manifest order.
	Health []resources.HealthCheck
	// Registrations are the service endpoints the resource announces
	// while it is stable (register_when_stable), validated.
	Registrations []registration.Entry
	// Lookups records the registry queries the resource's templates make
	// (registrations()), for watch mode to render it again when what they
	// find changes; nil when its manifest has no template support.
	Lookups *resources.Lookups
	// Refreshable is true when the type consumes refreshes (exec,
	// service): remediating a failed health check refreshes it (an exec
	// runs again, a service restarts) rather than only converging it.
	Refreshable bool
	// Rollback is the resource's own rollback setting, nil when the
	// manifest leaves it to the run's default. Only set on resources that
	// implement resources.Undoable.
	Rollback *bool
}

// ID is the vertex's reference, "type#name".
func (v *Vertex) ID() string {
	if v.id != "" {
		return v.id
	}
	return v.Type + "#" + v.Name
}

// Properties returns the resource's properties for reports, as upstream
// CCM's events carry them: as written (the block's defaults merged,
// templates unresolved), with its name and requested ensure, the type's
// secrets redacted and what the resource reports otherwise
// (resources.PropertyReporter: a file's content as its digest). A
// sensitive resource's hidden properties show as redacted whole. Each
// call decodes them anew.
func (v *Vertex) Properties() map[string]any {
	out := v.props.properties()
	out["name"] = v.Name
	if _, ok := out["ensure"]; !ok && v.Ensure != "" {
		out["ensure"] = v.Ensure
	}
	if t, ok := resources.Lookup(v.Type); ok && t.Redact != nil {
		t.Redact(out)
	}
	if r, ok := v.Resource.(resources.PropertyReporter); ok {
		r.ReportProperties(out)
	}
	if v.Secrets != nil {
		for _, k := range v.hidden {
			if _, ok := out[k]; ok {
				out[k] = resources.Redacted
			}
		}
		redactValues(out, v.Secrets)
	}
	return out
}

// redactValues cuts a sensitive resource's recorded values out of every
// string in m, however deep.
func redactValues(m map[string]any, s *resources.Secrets) {
	tree.MapLeaves(m, func(v any) any {
		if str, ok := v.(string); ok {
			return s.Redact(str)
		}
		return v
	})
}

// Graph is a validated dependency DAG of resources.
type Graph struct {
	Vertices []*Vertex
	Edges    []Edge
	// Order lists vertex indices in the order they run: manifest order,
	// except that a resource named by require or subscribe moves just
	// before the first resource that names it.
	Order     []int
	Manifests []*Manifest
	parents   [][]int
	children  [][]int
	subs      [][]int
	// after and before hold the Order edges, apart from the edges that
	// gate on failure.
	after, before [][]int
	// owns and uses hold each vertex's paths while edges are built.
	owns, uses [][]string
	// claims hold each vertex's content claims until they are checked.
	claims [][]resources.Claim
	// external resolves references to resources outside the manifests.
	external func(ref string) (External, error)
	// loader is what the graph was compiled from.
	loader *loader
	// probed maps references into pending child manifests to the chain
	// of manifests holding them (see pendingHolder); nil until needed.
	probed map[string]string
	// built holds the entries built, in vertex order, until compiled.
	built []*entry
}

// Parents returns the indices of the vertices v waits for.
func (g *Graph) Parents(v int) []int { return g.parents[v] }

// Children returns the indices of the vertices that wait for v.
func (g *Graph) Children(v int) []int { return g.children[v] }

// After returns the indices of the vertices written before v that it
// waits for, whatever their outcome.
func (g *Graph) After(v int) []int { return g.after[v] }

// Before returns the indices of the vertices written after v that wait
// for it to finish.
func (g *Graph) Before(v int) []int { return g.before[v] }

// Subscribers returns the indices of the vertices a change of v refreshes.
func (g *Graph) Subscribers(v int) []int { return g.subs[v] }

// OrderEdges counts the Order edges.
func (g *Graph) OrderEdges() int {
	n := 0
	for _, a := range g.after {
		n += len(a)
	}
	return n
}

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
	g.after = make([][]int, n)
	g.before = make([][]int, n)
	for _, e := range g.Edges {
		if e.Kind == Order {
			g.after[e.To] = append(g.after[e.To], e.From)
			g.before[e.From] = append(g.before[e.From], e.To)
			continue
		}
		g.parents[e.To] = append(g.parents[e.To], e.From)
		g.children[e.From] = append(g.children[e.From], e.To)
		if e.Kind == Subscribe {
			g.subs[e.From] = append(g.subs[e.From], e.To)
		}
	}
}
