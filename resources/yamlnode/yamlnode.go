// Package yamlnode holds the small helpers every walker of a parsed YAML
// document (yaml.v3 nodes) needs, so the graph, the resources' decoder
// and the merge-key expansion follow aliases and name what they found
// the same way.
package yamlnode

import (
	"fmt"

	"go.yaml.in/yaml/v3"
)

// Deref follows aliases to the node they stand for; nil stays nil.
func Deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// IsNull reports whether n is missing or a YAML null (`~`, `null`, nothing).
func IsNull(n *yaml.Node) bool {
	return n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null")
}

// Describe names what n is for an error message: "a list", "a map",
// "nothing", `the string "x"`, or another scalar as written (`"5"`,
// `"true"`).
func Describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a map"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return "nothing"
		case "!!str":
			return fmt.Sprintf("the string %q", n.Value)
		}
		return fmt.Sprintf("%q", n.Value)
	}
	return "an unsupported YAML node"
}
