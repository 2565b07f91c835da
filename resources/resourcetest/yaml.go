package resourcetest

import (
	"testing"

	"go.yaml.in/yaml/v3"
)

// YAMLDoc parses src, YAML a test wrote, into its document node; bad
// YAML fails t.
func YAMLDoc(t testing.TB, src string) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatalf("bad YAML in test: %v", err)
	}
	return &doc
}

// YAMLNode parses src as YAMLDoc does and returns what the document
// holds: a mapping, a list or a scalar; an empty src holds an empty
// mapping.
func YAMLNode(t testing.TB, src string) *yaml.Node {
	t.Helper()
	doc := YAMLDoc(t, src)
	if len(doc.Content) == 0 {
		return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: 1, Column: 1}
	}
	return doc.Content[0]
}
