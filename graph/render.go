package graph

import (
	"fmt"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/yamlnode"
	"go.yaml.in/yaml/v3"
)

// Rendered is a manifest as ccm sees it, for `ccm apply --render`.
type Rendered struct {
	// Document is the manifest to print: its data resolved, and its
	// resources as the graph reads them, one `- TYPE: [- NAME: {...}]`
	// block each, the block's defaults merged in, every template
	// resolved against the current facts and data, the values a
	// sensitive resource hides replaced by [redacted].
	Document map[string]any
	// Unresolved lists the templates that could not be resolved now (a
	// file an earlier resource writes, say), each with its position and
	// error; they are printed as written.
	Unresolved []string
}

// Render reads and renders the manifest file with the templates and
// resources_jet_file of opts. A manifest the graph cannot read (its
// shape, unknown types, bad common properties) is an error, as when it
// loads; the resources' own properties are not checked. Upstream prints
// deferred properties unresolved; this shows what they resolve to now.
func Render(file string, opts Options) (Rendered, error) {
	m, err := ParseManifest(file)
	if err != nil {
		return Rendered{}, err
	}
	var t resources.Templates = resources.Literal{}
	if opts.Templates != nil {
		if t, err = opts.Templates(m); err != nil {
			return Rendered{}, err
		}
	}
	blocks, where := m.Resources, m.File
	if m.ResourcesJetFile != "" {
		if opts.JetResources == nil {
			return Rendered{}, resources.Errorf(m.JetPos, "resources_jet_file is not supported by this command")
		}
		if blocks, err = opts.JetResources(m, t); err != nil {
			return Rendered{}, resources.Errorf(m.JetPos, "resources_jet_file %s: %v", m.ResourcesJetFile, err)
		}
		where = m.ResourcesJetFile + " (rendered)"
	}
	var errs resources.ErrorList
	var entries []*entry
	if blocks = yamlnode.Deref(blocks); blocks != nil && blocks.Kind == yaml.SequenceNode {
		entries = m.entries(blocks, t, &errs)
	}
	if err := errs.Err(); err != nil {
		return Rendered{}, err
	}
	r := &renderer{t: t, file: where}
	res := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	for _, e := range entries {
		res.Content = append(res.Content, r.entry(e))
	}
	ccm := map[string]any{
		"pre_message":   r.resolved(m.PreMessage, nil),
		"post_message":  r.resolved(m.PostMessage, nil),
		"fail_on_error": m.FailOnError,
		"resources":     res,
	}
	return Rendered{Document: map[string]any{"data": t.Vars()["data"], "ccm": ccm}, Unresolved: r.unresolved}, nil
}

// renderer resolves a manifest's templates for printing and remembers
// those it could not resolve.
type renderer struct {
	t          resources.Templates
	file       string
	unresolved []string
}

// entry is `- TYPE: [- NAME: {properties}]` for e, its properties
// resolved, or redacted where e is sensitive.
func (r *renderer) entry(e *entry) *yaml.Node {
	hidden := map[string]bool{}
	if e.sensitive {
		for _, k := range SecretKeys(*e.typ, e.raw, r.t) {
			hidden[k] = true
		}
	}
	props := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for i := 0; i+1 < len(e.raw.Content); i += 2 {
		k := e.raw.Content[i]
		props.Content = append(props.Content, k, r.tree(e.raw.Content[i+1], hidden[k.Value]))
	}
	named := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{scalar(e.name), props}}
	list := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{named}}
	return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{scalar(e.typ.Name), list}}
}

func scalar(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

// resolved is s with its templates resolved, or s when they fail; n,
// when known, places the failure.
func (r *renderer) resolved(s string, n *yaml.Node) any {
	if !r.t.HasExpr(s) {
		return s
	}
	v, err := r.t.Value(s)
	if err != nil {
		where := r.file
		if n != nil {
			where = resources.Pos{File: r.file, Line: n.Line, Col: n.Column}.String()
		}
		r.unresolved = append(r.unresolved, fmt.Sprintf("%s: %v", where, err))
		return s
	}
	return v
}

// tree copies n with every string resolved, or every scalar redacted.
func (r *renderer) tree(n *yaml.Node, redact bool) *yaml.Node {
	n = yamlnode.Deref(n)
	if n.Kind == yaml.ScalarNode {
		switch {
		case redact:
			return scalar(resources.Redacted)
		case n.Tag == "!!str" && r.t.HasExpr(n.Value):
			var out yaml.Node
			if err := out.Encode(r.resolved(n.Value, n)); err == nil {
				return &out
			}
		}
		cp := *n
		cp.Anchor = ""
		return &cp
	}
	cp := *n
	cp.Anchor = ""
	cp.Content = make([]*yaml.Node, len(n.Content))
	for i, c := range n.Content {
		cp.Content[i] = r.tree(c, redact && (n.Kind != yaml.MappingNode || i%2 == 1))
	}
	return &cp
}
