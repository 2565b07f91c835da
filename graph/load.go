package graph

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/health"
	"github.com/reactive-ccm/ccm/resources/registration"
	"github.com/reactive-ccm/ccm/resources/yamlnode"
	"go.yaml.in/yaml/v3"
)

// Options tune how manifests are loaded.
type Options struct {
	// Templates builds the template environment of a manifest from its data
	// sections. When nil, values are taken literally.
	Templates func(m *Manifest) (resources.Templates, error)
	// JetResources renders a manifest's resources_jet_file into the list of
	// resource blocks. When nil, resources_jet_file is rejected.
	JetResources func(m *Manifest, t resources.Templates) (*yaml.Node, error)
	// External resolves a require or subscribe reference (TYPE#NAME) that
	// names no resource of the manifests, such as one an earlier
	// `ccm ensure` of the same session recorded. Its error says why the
	// reference cannot be resolved. When nil, such references are errors.
	External func(ref string) (External, error)
	// Children says when apply resources read their child manifests.
	Children ChildLoading
}

// ChildLoading says when apply resources read their child manifests.
type ChildLoading int

const (
	// ChildrenAtLoad reads each child manifest that exists with its
	// parent, so it is checked before anything runs; one that does not
	// exist yet is read when its apply resource runs (Vertex.Pending).
	// For validate, graph and watch mode.
	ChildrenAtLoad ChildLoading = iota
	// ChildrenAtRun reads every child manifest when its apply resource
	// runs, as upstream CCM does, so an earlier resource of the same run
	// may write, fetch or unpack it. For one-shot runs.
	ChildrenAtRun
)

// External is a resource outside the manifests that resources may
// require or subscribe to. Its vertex gates and refreshes its children
// like any other; the engine reports no events of it.
type External struct {
	Type, Name, Alias string
	Resource          resources.Resource
}

// Load parses, builds and validates the manifests in files into one graph.
// Every problem found is returned together, as a resources.ErrorList:
// a resource that fails to build still takes its place in the graph, so
// the references and cycles of the others are checked too.
func Load(files []string, opts Options) (*Graph, error) {
	l := &loader{opts: opts, children: map[string]*Manifest{}}
	for _, f := range files {
		m, err := ParseManifest(f)
		if err != nil {
			l.errs.Add(resources.Pos{File: f}, err)
			continue
		}
		m.incl = topLevel(m)
		l.tops = append(l.tops, m)
	}
	g, err := l.compile()
	if err == nil && !g.pending() {
		l.release()
	}
	return g, err
}

// loader keeps what a graph was compiled from, so that a child manifest
// read when its apply resource runs joins the graph (Graph.Expand)
// without the other manifests being read or their data resolved again.
type loader struct {
	opts Options
	// tops are the manifests loaded for their own sake, in order.
	tops []*Manifest
	// errs are the errors of the manifests that did not parse.
	errs resources.ErrorList
	// children holds the child manifests read so far, by inclusion key
	// (see childKey).
	children map[string]*Manifest
}

// compile builds the graph of the manifests and the children read so far.
func (l *loader) compile() (*Graph, error) {
	g, errs := l.build()
	return g.compile(errs)
}

// build makes the vertices of the manifests' resources, without edges.
func (l *loader) build() (*Graph, resources.ErrorList) {
	g := &Graph{loader: l, external: l.opts.External}
	errs := slices.Clone(l.errs)
	var all []*entry
	tmpls := map[*Manifest]resources.Templates{}
	for _, m := range l.tops {
		g.Manifests = append(g.Manifests, m)
		errs = append(errs, m.nul...)
		t, blocks, err := l.opts.prepare(m)
		if err != nil {
			errs.Add(resources.Pos{File: m.File}, err)
			continue
		}
		tmpls[m] = t
		all = append(all, m.entries(blocks, t, &errs)...)
	}
	for _, e := range all {
		g.build(e, tmpls[e.m], &errs)
	}
	return g, errs
}

// compile links the built entries: their references, edges and order,
// once their claims on files agree.
func (g *Graph) compile(errs resources.ErrorList) (*Graph, error) {
	g.checkClaims(&errs)
	byRef := g.references(g.built, &errs)
	g.edges(g.built, byRef, &errs)
	// The entries, their properties' parse trees with them, are not
	// needed past this point: a watching daemon would keep them for good.
	g.built = nil
	g.index()
	if err := g.sort(); err != nil {
		addCycles(&errs, err)
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	g.orderEdges()
	return g, nil
}

// pending reports whether an apply resource's child manifest is still to
// be read (Vertex.Pending): Expand then compiles the manifests again.
func (g *Graph) pending() bool {
	return slices.ContainsFunc(g.Vertices, func(v *Vertex) bool { return v.Pending != nil })
}

// release drops the manifests' resource blocks, parse trees that nothing
// compiles again when no child manifest is pending (a graph Expand made
// shares its manifests with the graph expanded, which may be expanded
// again, so only Load releases them): a watching daemon would keep them
// for good, several times the size of what the graph keeps of them.
func (l *loader) release() {
	for _, m := range l.tops {
		m.release()
	}
	for _, m := range l.children {
		m.release()
	}
}

func (m *Manifest) release() {
	m.Resources = nil
	if m.prep != nil {
		m.prep.blocks = nil
	}
}

// addCycles adds the cycles sort reported, each at its first resource.
func addCycles(errs *resources.ErrorList, err error) {
	joined, ok := err.(interface{ Unwrap() []error })
	if !ok {
		errs.Add(resources.Pos{}, err)
		return
	}
	for _, e := range joined.Unwrap() {
		var c *CycleError
		if errors.As(e, &c) {
			errs.Addf(c.Pos, "dependency cycle: %s", strings.Join(c.Path, " -> "))
			continue
		}
		errs.Add(resources.Pos{}, e)
	}
}

// prepare builds a manifest's template environment and finds its resource
// blocks, once: a graph compiled again (Graph.Expand) reuses them.
func (o Options) prepare(m *Manifest) (resources.Templates, *yaml.Node, error) {
	if m.prep == nil {
		t, blocks, err := o.prepareOnce(m)
		m.prep = &prepared{t: t, blocks: blocks, err: err}
	}
	return m.prep.t, m.prep.blocks, m.prep.err
}

func (o Options) prepareOnce(m *Manifest) (resources.Templates, *yaml.Node, error) {
	var t resources.Templates = resources.Literal{}
	if o.Templates != nil {
		var err error
		if t, err = o.Templates(m); err != nil {
			return nil, nil, err
		}
	}
	for _, msg := range []*string{&m.PreMessage, &m.PostMessage} {
		s, err := t.String(*msg)
		if err != nil {
			return nil, nil, fmt.Errorf("message: %w", err)
		}
		*msg = s
	}
	if m.ResourcesJetFile == "" {
		return t, m.Resources, nil
	}
	if o.JetResources == nil {
		return nil, nil, resources.Errorf(m.JetPos, "resources_jet_file is not supported by this command")
	}
	blocks, err := o.JetResources(m, t)
	if err != nil {
		return nil, nil, resources.Errorf(m.JetPos, "resources_jet_file %s: %v", m.ResourcesJetFile, err)
	}
	return t, blocks, nil
}

// build asks the entry's type to build the resource and adds the vertex.
func (g *Graph) build(e *entry, t resources.Templates, errs *resources.ErrorList) {
	spec := &resources.Spec{Type: e.typ.Name, Name: e.name, Props: e.props, Pos: e.namePos, Dir: e.m.Dir, Templates: t}
	var lookups *resources.Lookups
	if s, ok := t.(resources.Scoper); ok {
		lookups = &resources.Lookups{}
		spec.Templates = s.Scope(lookups)
	}
	if e.sensitive {
		spec.Secrets = &resources.Secrets{}
		spec.Templates = resources.Recording(spec.Templates, spec.Secrets)
	}
	inst, err := e.typ.Build(spec)
	if err = spec.Secrets.RedactErr(err); err != nil {
		// A broken resource keeps its place, so the indices of the entries
		// and the vertices agree: Load fails anyway, after checking the
		// references and cycles of everything else.
		errs.Add(e.namePos, err)
	}
	checks, err := health.Parse(spec, e.health)
	if err = spec.Secrets.RedactErr(err); err != nil {
		errs.Add(e.namePos, err)
	}
	regs, err := registration.Parse(spec, e.registrations)
	if err = spec.Secrets.RedactErr(err); err != nil {
		errs.Add(e.namePos, err)
	}
	spec.Secrets.Seal()
	var pending *PendingChild
	child := ""
	if inst.Include != nil {
		e.members, child, pending = g.include(e, inst.Include, errs)
	}
	if lookups != nil {
		lookups.Seal()
		// What the registry held when the resource loaded is part of it.
		child += lookups.Loaded()
	}
	v := &Vertex{
		Index: len(g.Vertices), Type: e.typ.Name, Name: e.name, Alias: e.alias, Pos: e.namePos,
		Resource: inst.Resource, Provider: inst.Provider, Ensure: inst.Ensure, Manifest: e.m, Pending: pending,
		Fingerprint: fingerprint(e, t, child), Independent: inst.Independent && e.control == nil,
		Health: checks, Registrations: regs, Lookups: lookups, Refreshable: e.typ.Subscribes, Rollback: e.rollback,
		Noop: e.m.incl.noop || (inst.Include != nil && inst.Include.Noop), HealthCheckOnly: e.m.incl.healthOnly,
		props: asWrittenOf(e.raw, e.own, e.defaults), Secrets: spec.Secrets, Templated: spec.Templated,
	}
	v.id = v.Type + "#" + v.Name
	if e.sensitive {
		v.hidden = SecretKeys(*e.typ, e.raw, t)
	}
	e.control.attach(v, t, errs)
	e.index = v.Index
	g.built = append(g.built, e)
	g.Vertices = append(g.Vertices, v)
	g.owns = append(g.owns, inst.Owns)
	g.uses = append(g.uses, inst.Uses)
	g.claims = append(g.claims, inst.Claims)
}

// fingerprint hashes everything that defines the resource's desired state
// (with child, what an apply resource holds of its child manifest). What
// it hashes is gathered first and hashed once: writing each field to the
// hash would copy each to the heap.
func fingerprint(e *entry, t resources.Templates, child string) string {
	b := make([]byte, 0, 512)
	field := func(s string) {
		b = append(b, s...)
		b = append(b, 0)
	}
	field(child)
	field(e.typ.Name)
	field(e.name)
	field(e.m.Dir)
	templated := false
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		n = yamlnode.Deref(n)
		b = append(b, byte(n.Kind), byte(len(n.Content)), byte(len(n.Content)>>8))
		field(n.Tag)
		field(n.Value)
		if n.Kind == yaml.ScalarNode && t.HasExpr(n.Value) {
			templated = true
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(e.raw)
	if templated {
		field(t.Fingerprint())
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
