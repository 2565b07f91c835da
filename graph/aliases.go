package graph

import (
	"github.com/reactive-ccm/ccm/graph/internal/yamlmerge"
	"go.yaml.in/yaml/v3"
)

// PrepareYAML readies a parsed YAML document for walking as manifests,
// hiera and facts files are: it refuses aliases that expand too far (an
// alias bomb), with the same budget, then resolves merge keys (`<<:
// *defaults`) as upstream's YAML library does. It is for the other
// documents ccm parses into nodes and then walks: an ensure request and
// the agent's configuration.
func PrepareYAML(file string, doc *yaml.Node) error {
	return yamlmerge.Expand(file, doc)
}
