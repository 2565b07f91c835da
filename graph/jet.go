package graph

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/reactive-ccm/ccm/graph/internal/yamlmerge"
	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/document"
	"github.com/reactive-ccm/ccm/resources/yamlnode"
	"go.yaml.in/yaml/v3"
)

// jetRenderer is what resources_jet_file needs from a manifest's templates.
type jetRenderer interface {
	Jet(name, body, left, right string) (string, error)
}

// errNoJet is returned when a manifest's templates cannot render Jet.
var errNoJet = errors.New("this command loads manifests without templates")

// JetResources renders m's resources_jet_file (relative to the manifest's
// directory, read under the ownership rule as manifests are) with Jet,
// delimiters [[ ]], and parses the output as the list of resource blocks.
// The generated nodes are positioned at the resources_jet_file line,
// since they come from no line of the manifest.
func JetResources(m *Manifest, t resources.Templates) (*yaml.Node, error) {
	jr, ok := t.(jetRenderer)
	if !ok {
		return nil, errNoJet
	}
	file := m.ResourcesJetFile
	if !filepath.IsAbs(file) {
		file = filepath.Join(m.Dir, file)
	}
	// It makes resources as the manifest does: read as a manifest is.
	body, err := document.Read(file)
	if err != nil {
		return nil, err
	}
	out, err := jr.Jet(file, string(body), "[[", "]]")
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(out), &doc); err != nil {
		return nil, fmt.Errorf("the rendered resources are not valid YAML: %w", err)
	}
	if err := yamlmerge.Expand(file, &doc); err != nil {
		return nil, err
	}
	if len(doc.Content) == 0 || yamlnode.Deref(doc.Content[0]).Kind != yaml.SequenceNode || len(yamlnode.Deref(doc.Content[0]).Content) == 0 {
		return nil, errors.New("the rendered output is not a non-empty list of resource blocks")
	}
	root := yamlnode.Deref(doc.Content[0])
	reposition(root, m.JetPos)
	return root, nil
}

// reposition moves n and everything under it to p.
func reposition(n *yaml.Node, p resources.Pos) {
	n.Line, n.Column = p.Line, p.Col
	for _, c := range n.Content {
		reposition(c, p)
	}
}
