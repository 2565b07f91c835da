package graph

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/reactive-ccm/ccm/graph/internal/yamlmerge"
	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/document"
	"github.com/reactive-ccm/ccm/resources/yamlnode"
	"go.yaml.in/yaml/v3"
)

// Manifest is one parsed manifest file, before its resources are built.
type Manifest struct {
	File string
	// Dir is the manifest's directory: relative paths in it resolve there.
	Dir string
	// Data, Hierarchy and Overrides are the hiera sections as written, for
	// the template environment to resolve; nil when absent.
	Data, Hierarchy, Overrides *yaml.Node
	PreMessage, PostMessage    string
	FailOnError                bool
	// Parallel leaves the manifest's resources out of the written order:
	// only require, subscribe and path edges order them.
	Parallel bool
	// Resources is the list of resource blocks, nil when ResourcesJetFile
	// generates them, and once a graph compiled from the manifest has no
	// child manifest pending (nothing compiles it again).
	Resources        *yaml.Node
	ResourcesJetFile string
	// JetPos is where resources_jet_file was set.
	JetPos resources.Pos
	// incl is how the manifest came into the graph.
	incl *inclusion
	// nul lists the keys and values holding a NUL byte.
	nul resources.ErrorList
	// prep is the manifest's template environment and resource blocks,
	// once prepared.
	prep *prepared
	// digest identifies the content a child manifest was read with.
	digest string
}

// prepared is what Options.prepare found for a manifest.
type prepared struct {
	t      resources.Templates
	blocks *yaml.Node
	err    error
}

// ParseManifest reads and parses one manifest file.
func ParseManifest(file string) (*Manifest, error) {
	src, err := document.Read(file)
	if err != nil {
		return nil, fmt.Errorf("reading manifest: %w", err)
	}
	return parseManifest(file, src)
}

func parseManifest(file string, src []byte) (*Manifest, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, syntaxError(file, src, err)
	}
	if err := yamlmerge.Expand(file, &doc); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	m := &Manifest{File: file, Dir: filepath.Dir(abs)}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, resources.Errorf(resources.Pos{File: file}, "manifest is empty; it needs a ccm: resources: list")
	}
	root := yamlnode.Deref(doc.Content[0])
	var errs resources.ErrorList
	// Reported by Load with everything else, not as a reason to stop.
	nulBytes(file, root, &m.nul)
	switch root.Kind {
	case yaml.SequenceNode:
		m.Resources = root
	case yaml.MappingNode:
		m.parseTop(root, &errs)
	default:
		errs.Addf(pos(file, root), "a manifest is a map with a ccm: key, or a list of resources; got %s", yamlnode.Describe(root))
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return m, nil
}

// nulBytes reports every key and value holding a NUL byte: no path,
// command or content ccm hands to the system can carry one, and a path
// would silently end there.
func nulBytes(file string, n *yaml.Node, errs *resources.ErrorList) {
	if n.Kind == yaml.ScalarNode && strings.ContainsRune(n.Value, 0) {
		errs.Addf(pos(file, n), "%q contains a NUL byte (\\0); remove it", n.Value)
	}
	for _, c := range n.Content {
		nulBytes(file, c, errs)
	}
}

func (m *Manifest) parseTop(root *yaml.Node, errs *resources.ErrorList) {
	m.takeKeys(root, topKeys, "top-level", errs)
	if !hasKey(root, "ccm") {
		errs.Addf(pos(m.File, root), "manifest has no ccm: section with resources")
	}
}

// takeKeys has each key of section (the mapping node) take its value;
// a key keys does not hold is an error naming the section ("ccm").
func (m *Manifest) takeKeys(section *yaml.Node, keys []SectionKey, what string, errs *resources.ErrorList) {
	for _, p := range pairs(m.File, section, errs) {
		k := findKey(keys, p.key.Value)
		if k == nil {
			errs.Addf(pos(m.File, p.key), "unknown %s key %q; valid keys: %s", what, p.key.Value, keyNames(keys))
			continue
		}
		k.take(m, p, errs)
	}
}

func (m *Manifest) mapping(p pair, errs *resources.ErrorList) *yaml.Node {
	if yamlnode.IsNull(p.val) {
		return nil
	}
	if p.val.Kind != yaml.MappingNode {
		errs.Addf(pos(m.File, p.val), "%s: expected a map, got %s", p.key.Value, yamlnode.Describe(p.val))
		return nil
	}
	return p.val
}

func (m *Manifest) parseCCM(ccm *yaml.Node, errs *resources.ErrorList) {
	m.takeKeys(ccm, ccmKeys, "ccm", errs)
	switch {
	case m.Resources != nil && m.ResourcesJetFile != "":
		errs.Addf(m.JetPos, "resources and resources_jet_file are mutually exclusive")
	case m.Resources == nil && m.ResourcesJetFile == "":
		errs.Addf(pos(m.File, ccm), "ccm: needs resources (or resources_jet_file)")
	case m.Resources != nil && len(m.Resources.Content) == 0:
		errs.Addf(pos(m.File, m.Resources), "resources: the list is empty")
	}
}

func (m *Manifest) boolean(p pair, errs *resources.ErrorList) bool {
	if p.val.Kind != yaml.ScalarNode || p.val.Tag != "!!bool" {
		errs.Addf(pos(m.File, p.val), "%s: expected true or false, got %s", p.key.Value, yamlnode.Describe(p.val))
		return false
	}
	return p.val.Value == "true"
}

func (m *Manifest) str(p pair, errs *resources.ErrorList) string {
	if p.val.Kind != yaml.ScalarNode || yamlnode.IsNull(p.val) {
		errs.Addf(pos(m.File, p.val), "%s: expected a string, got %s", p.key.Value, yamlnode.Describe(p.val))
		return ""
	}
	return p.val.Value
}

// Templated reports whether loading m may evaluate a template of t: some
// string of m holds an expression, or a Jet file renders its resources.
// Resources that render templates of their own (scaffold) may need t's
// facts later, when they run.
func (m *Manifest) Templated(t resources.Templates) bool {
	if m.ResourcesJetFile != "" || t.HasExpr(m.PreMessage) || t.HasExpr(m.PostMessage) {
		return true
	}
	for _, n := range []*yaml.Node{m.Data, m.Hierarchy, m.Overrides, m.Resources} {
		if n != nil && holdsExpr(n, t) {
			return true
		}
	}
	return false
}

// holdsExpr reports whether a scalar of n holds an expression of t.
func holdsExpr(n *yaml.Node, t resources.Templates) bool {
	n = yamlnode.Deref(n)
	if n.Kind == yaml.ScalarNode {
		return t.HasExpr(n.Value)
	}
	for _, c := range n.Content {
		if holdsExpr(c, t) {
			return true
		}
	}
	return false
}
