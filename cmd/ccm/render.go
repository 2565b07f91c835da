package main

import (
	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/resources"
	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"
)

// renderManifest prints file as ccm sees it: its data resolved, its
// resources_jet_file expanded and every template resolved against the
// current facts and data. A template that cannot be resolved yet (a file
// an earlier resource writes, say) is printed as written. Upstream prints
// deferred properties unresolved; this shows what they resolve to now.
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
	blocks := m.Resources
	if m.ResourcesJetFile != "" {
		if blocks, err = opts.JetResources(m, t); err != nil {
			return usage(resources.Errorf(m.JetPos, "resources_jet_file %s: %v", m.ResourcesJetFile, err))
		}
	}
	ccm := map[string]any{
		"pre_message":   resolved(t, m.PreMessage),
		"post_message":  resolved(t, m.PostMessage),
		"fail_on_error": m.FailOnError,
		"resources":     resolveTree(t, blocks),
	}
	return printValue(cmd, map[string]any{"data": t.Vars()["data"], "ccm": ccm}, true)
}

// resolved is s with its templates resolved, or s when they fail.
func resolved(t resources.Templates, s string) any {
	if !t.HasExpr(s) {
		return s
	}
	v, err := t.Value(s)
	if err != nil {
		return s
	}
	return v
}

// resolveTree copies n with every string resolved as resolved does.
func resolveTree(t resources.Templates, n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	cp := *n
	cp.Anchor = ""
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" && t.HasExpr(n.Value) {
		var out yaml.Node
		if err := out.Encode(resolved(t, n.Value)); err == nil {
			return &out
		}
		return &cp
	}
	cp.Content = make([]*yaml.Node, len(n.Content))
	for i, c := range n.Content {
		cp.Content[i] = resolveTree(t, c)
	}
	return &cp
}
