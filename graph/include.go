package graph

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/document"
)

// MaxIncludeDepth bounds how deep manifests may apply manifests, as
// upstream CCM documents.
const MaxIncludeDepth = 10

// inclusion is how a manifest came into the graph.
type inclusion struct {
	// chain lists the absolute paths of the manifests that applied this
	// one, first the top-level one, last this one.
	chain []string
	// noop runs the manifest's resources in noop.
	noop bool
	// healthOnly runs only the manifest's resources' health checks.
	healthOnly bool
	// nested lets the manifest apply others.
	nested bool
	// data is merged over the manifest's resolved data.
	data map[string]any
}

// topLevel is the inclusion of a manifest loaded for its own sake.
func topLevel(m *Manifest) *inclusion {
	abs, err := filepath.Abs(m.File)
	if err != nil {
		abs = m.File
	}
	return &inclusion{chain: []string{abs}, nested: true}
}

// PendingChild is the child manifest of an apply resource that the graph
// holds no resources of yet: it is read when the resource runs.
type PendingChild struct {
	// File is the child manifest's absolute path.
	File string
	// Why is why it was not read with the graph: nil when children are
	// read when they run (ChildrenAtRun), else the error reading it.
	Why error
	// key identifies the inclusion among the loader's children.
	key  string
	incl *inclusion
}

// childKey identifies the child manifest file as applied from chain.
func childKey(chain []string, file string) string {
	return strings.Join(append(slices.Clone(chain), file), "\x00")
}

// readChild reads and parses a child manifest. It is the one reader of
// child manifests, so what must hold of one before ccm trusts it is
// checked here, whenever and however it is read.
func readChild(file string) (*Manifest, error) {
	src, err := document.Read(file)
	if err != nil {
		return nil, fmt.Errorf("reading manifest: %w", err)
	}
	m, err := parseManifest(file, src)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(src)
	m.digest = hex.EncodeToString(sum[:])
	return m, nil
}

// include brings in the manifest in describes, which e's resource
// applies: it builds its resources where e is written and returns their
// vertices, or, when the child is not read yet, says what is pending.
// state is what the apply resource's fingerprint holds of the child:
// "pending", or the digest of the content read, so the resource is
// replaced when its child is loaded or changes.
func (g *Graph) include(e *entry, in *resources.Include, errs *resources.ErrorList) (members []int, state string, pending *PendingChild) {
	parent := e.m.incl
	switch {
	case !parent.nested:
		errs.Addf(e.namePos, "%s: %s may not apply other manifests: it is applied with allow_apply: false", e.id(), e.m.File)
		return nil, "", nil
	case slices.Contains(parent.chain, in.File):
		i := slices.Index(parent.chain, in.File)
		errs.Addf(e.namePos, "%s: %s applies itself: %s", e.id(), in.File, strings.Join(append(slices.Clone(parent.chain[i:]), in.File), " -> "))
		return nil, "", nil
	case len(parent.chain) > MaxIncludeDepth:
		errs.Addf(e.namePos, "%s: manifests apply manifests more than %d levels deep: %s", e.id(), MaxIncludeDepth, strings.Join(parent.chain, " -> "))
		return nil, "", nil
	}
	key := childKey(parent.chain, in.File)
	m, ok := g.loader.children[key]
	if !ok {
		pending = &PendingChild{File: in.File, key: key, incl: &inclusion{chain: append(slices.Clone(parent.chain), in.File),
			noop: parent.noop || in.Noop, healthOnly: parent.healthOnly || in.HealthCheckOnly, nested: in.Nested, data: in.Data}}
		if g.loader.opts.Children == ChildrenAtRun {
			return nil, "pending", pending
		}
		var err error
		if m, err = readChild(in.File); errors.Is(err, fs.ErrNotExist) {
			pending.Why = err
			return nil, "pending", pending
		}
		if err != nil {
			errs.Add(e.namePos, fmt.Errorf("%s: %w", e.id(), err))
			return nil, "", nil
		}
		m.incl = pending.incl
		g.loader.children[key] = m
	}
	return g.members(m, errs), m.digest, nil
}

// members builds the resources of the child manifest m and returns their
// vertices.
func (g *Graph) members(m *Manifest, errs *resources.ErrorList) []int {
	g.Manifests = append(g.Manifests, m)
	*errs = append(*errs, m.nul...)
	t, blocks, err := g.loader.opts.prepare(m)
	if err != nil {
		errs.Add(resources.Pos{File: m.File}, err)
		return nil
	}
	var members []int
	for _, c := range m.entries(blocks, t, errs) {
		c.index = -1
		g.build(c, t, errs)
		if c.index >= 0 {
			members = append(members, c.index)
		}
	}
	return members
}

// Expand returns the graph with the child manifest of an apply resource
// (its Vertex.Pending) read now and loaded, as when the resource runs:
// its resources take their place as if the child had been read with the
// graph, nested children of it pending in turn. The error says why the
// child cannot join: it cannot be read, or the graph with it does not
// compile. g is unchanged.
func (g *Graph) Expand(p *PendingChild) (*Graph, error) {
	m, err := readChild(p.File)
	if err != nil {
		return nil, err
	}
	m.incl = p.incl
	l := *g.loader
	l.children = maps.Clone(l.children)
	l.children[p.key] = m
	return l.compile()
}

// pendingHolder returns the apply resource whose child manifest, read
// when it runs, holds the resource ref names, as the child reads now
// (children that do not exist yet hold nothing): what names a resource
// of a pending child waits for that child to be loaded, and is then
// linked to the resource itself.
func (g *Graph) pendingHolder(ref string) (int, bool) {
	if g.loader.opts.Children != ChildrenAtRun {
		return 0, false
	}
	if g.probed == nil {
		g.probed = g.loader.probe()
	}
	chain, ok := g.probed[ref]
	if !ok {
		return 0, false
	}
	for i, v := range g.Vertices {
		if p := v.Pending; p != nil && (chain == p.key || strings.HasPrefix(chain, p.key+"\x00")) {
			return i, true
		}
	}
	return 0, false
}

// probe maps the references of every resource the manifests would hold
// with every child that exists read now to the chain of manifests it
// comes from. Errors do not matter: only names are looked for.
func (l *loader) probe() map[string]string {
	p := *l
	p.opts.Children = ChildrenAtLoad
	p.children = maps.Clone(l.children)
	g, _ := p.build()
	out := make(map[string]string, len(g.built))
	for i, e := range g.built {
		chain := strings.Join(e.m.incl.chain, "\x00")
		out[g.Vertices[i].ID()] = chain
		if e.alias != "" {
			out[e.typ.Name+"#"+e.alias] = chain
		}
	}
	return out
}
