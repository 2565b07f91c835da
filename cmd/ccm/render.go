package main

import (
	"fmt"
	"strings"

	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/resources"
	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"
)

// renderManifest prints file as ccm sees it: its data resolved, its
// resources_jet_file expanded and every template resolved against the
// current facts and data. A template that cannot be resolved yet (a file
// an earlier resource writes, say) is printed as written, and a warning
// on stderr lists each with its position and error. Upstream prints
// deferred properties unresolved; this shows what they resolve to now.
// The resolved and deferred values of a resource marked sensitive are
// printed as [redacted].
func renderManifest(cmd *cobra.Command, arg string) error {
	files, err := manifestPaths(cmd, []string{arg})
	if err != nil {
		return err
	}
	m, err := graph.ParseManifest(files[0])
	if err != nil {
		return usage(err)
	}
	opts := loadOptions(cmd)
	t, err := opts.Templates(m)
	if err != nil {
		return usage(err)
	}
	blocks, where := m.Resources, m.File
	if m.ResourcesJetFile != "" {
		if blocks, err = opts.JetResources(m, t); err != nil {
			return usage(resources.Errorf(m.JetPos, "resources_jet_file %s: %v", m.ResourcesJetFile, err))
		}
		where = m.ResourcesJetFile + " (rendered)"
	}
	r := &renderer{t: t, file: where}
	ccm := map[string]any{
		"pre_message":   r.resolved(m.PreMessage, nil),
		"post_message":  r.resolved(m.PostMessage, nil),
		"fail_on_error": m.FailOnError,
		"resources":     r.blocks(blocks),
	}
	if err := printValue(cmd, map[string]any{"data": t.Vars()["data"], "ccm": ccm}, true); err != nil {
		return err
	}
	if len(r.unresolved) > 0 {
		cmd.PrintErrf("ccm: warning: %d templates could not be resolved now and are printed as written:\n  %s\n",
			len(r.unresolved), strings.Join(r.unresolved, "\n  "))
	}
	return nil
}

// renderer resolves a manifest's templates for printing and remembers
// those it could not resolve.
type renderer struct {
	t          resources.Templates
	file       string
	unresolved []string
}

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

// blocks copies the resources list, resolved; the entries of resources
// marked sensitive are redacted.
func (r *renderer) blocks(n *yaml.Node) *yaml.Node {
	n = deref(n)
	if n.Kind != yaml.SequenceNode {
		return r.tree(n, false)
	}
	cp := copyNode(n)
	for i, blk := range n.Content {
		cp.Content[i] = r.block(deref(blk))
	}
	return cp
}

// block copies one `- TYPE: ...` item, knowing which entries are
// sensitive (their own flag, or the block's defaults').
func (r *renderer) block(blk *yaml.Node) *yaml.Node {
	if blk.Kind != yaml.MappingNode || len(blk.Content) != 2 {
		return r.tree(blk, false)
	}
	typ, _ := resources.Lookup(blk.Content[0].Value)
	body := deref(blk.Content[1])
	cp := copyNode(blk)
	cp.Content[0] = blk.Content[0]
	if body.Kind == yaml.MappingNode {
		cp.Content[1] = r.props(body, sensitive(body), typ)
		return cp
	}
	defaults := false
	for _, it := range body.Content {
		if it = deref(it); it.Kind == yaml.MappingNode && len(it.Content) == 2 && it.Content[0].Value == "defaults" {
			defaults = sensitive(deref(it.Content[1]))
		}
	}
	items := copyNode(body)
	for i, it := range body.Content {
		it = deref(it)
		if it.Kind != yaml.MappingNode || len(it.Content) != 2 {
			items.Content[i] = r.tree(it, false)
			continue
		}
		props := deref(it.Content[1])
		entry := copyNode(it)
		entry.Content[0] = it.Content[0]
		entry.Content[1] = r.props(props, defaults || sensitive(props), typ)
		items.Content[i] = entry
	}
	cp.Content[1] = items
	return cp
}

// props copies a resource's properties; when secret, those events hide
// (graph.SecretKeys) are redacted whole.
func (r *renderer) props(n *yaml.Node, secret bool, typ resources.Type) *yaml.Node {
	if n.Kind != yaml.MappingNode {
		return r.tree(n, false)
	}
	hidden := map[string]bool{}
	if secret {
		for _, k := range graph.SecretKeys(typ, n, r.t) {
			hidden[k] = true
		}
	}
	cp := copyNode(n)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], deref(n.Content[i+1])
		cp.Content[i] = k
		cp.Content[i+1] = r.tree(v, hidden[k.Value])
	}
	return cp
}

// tree copies n with every string resolved, or every scalar redacted.
func (r *renderer) tree(n *yaml.Node, redact bool) *yaml.Node {
	n = deref(n)
	if n.Kind == yaml.ScalarNode {
		switch {
		case redact:
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: resources.Redacted}
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
	cp := copyNode(n)
	for i, c := range n.Content {
		cp.Content[i] = r.tree(c, redact && (n.Kind != yaml.MappingNode || i%2 == 1))
	}
	return cp
}

// sensitive reports whether a property map says sensitive: true.
func sensitive(props *yaml.Node) bool {
	for i := 0; i+1 < len(props.Content); i += 2 {
		if props.Content[i].Value == "sensitive" {
			return strings.EqualFold(deref(props.Content[i+1]).Value, "true")
		}
	}
	return false
}

func deref(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// copyNode copies n without its anchor, with room for its content.
func copyNode(n *yaml.Node) *yaml.Node {
	cp := *n
	cp.Anchor = ""
	cp.Content = make([]*yaml.Node, len(n.Content))
	return &cp
}
