package graph

import (
	"github.com/reactive-ccm/ccm/graph/internal/yamlbudget"
	"go.yaml.in/yaml/v3"
)

// CheckAliases refuses a YAML document whose aliases expand too far (an
// alias bomb), with the same budget as manifests, hiera and facts files:
// for the other documents ccm parses into nodes and then walks, an ensure
// request and the agent's configuration.
func CheckAliases(file string, doc *yaml.Node) error { return yamlbudget.Check(file, doc) }
