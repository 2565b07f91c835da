package graph

import "go.yaml.in/yaml/v3"

// KeptProperties returns what a vertex keeps of the properties node n:
// a function giving the properties as Properties starts from them.
func KeptProperties(n *yaml.Node) func() map[string]any { return asWrittenOf(n, nil, nil).properties }
