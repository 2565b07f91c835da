package graph

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
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

// include loads the manifest in describes, which e's resource brings in,
// builds its resources where e is written and returns their vertices.
func (g *Graph) include(e *entry, in *resources.Include, errs *resources.ErrorList) []int {
	parent := e.m.incl
	switch {
	case !parent.nested:
		errs.Addf(e.namePos, "%s: %s may not apply other manifests: it is applied with allow_apply: false", e.id(), e.m.File)
		return nil
	case slices.Contains(parent.chain, in.File):
		i := slices.Index(parent.chain, in.File)
		errs.Addf(e.namePos, "%s: %s applies itself: %s", e.id(), in.File, strings.Join(append(slices.Clone(parent.chain[i:]), in.File), " -> "))
		return nil
	case len(parent.chain) > MaxIncludeDepth:
		errs.Addf(e.namePos, "%s: manifests apply manifests more than %d levels deep: %s", e.id(), MaxIncludeDepth, strings.Join(parent.chain, " -> "))
		return nil
	}
	m, err := ParseManifest(in.File)
	if err != nil {
		errs.Add(e.namePos, fmt.Errorf("%s: %w", e.id(), err))
		return nil
	}
	m.incl = &inclusion{chain: append(slices.Clone(parent.chain), in.File), noop: parent.noop || in.Noop,
		healthOnly: parent.healthOnly || in.HealthCheckOnly, nested: in.Nested, data: in.Data}
	g.Manifests = append(g.Manifests, m)
	*errs = append(*errs, m.nul...)
	t, blocks, err := g.opts.prepare(m)
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
