package graph

import (
	"strconv"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/yamlnode"
	"go.yaml.in/yaml/v3"
)

// pos returns the position of n in file.
func pos(file string, n *yaml.Node) resources.Pos {
	return resources.Pos{File: file, Line: n.Line, Col: n.Column}
}

// pair is one key and its value in a mapping node.
type pair struct{ key, val *yaml.Node }

// pairs lists a mapping's entries, reporting duplicate keys.
func pairs(file string, m *yaml.Node, errs *resources.ErrorList) []pair {
	out := make([]pair, 0, len(m.Content)/2)
	seen := make(map[string]int, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], yamlnode.Deref(m.Content[i+1])
		if line, dup := seen[k.Value]; dup {
			errs.Addf(pos(file, k), "duplicate key %q (first set at line %d)", k.Value, line)
			continue
		}
		seen[k.Value] = k.Line
		out = append(out, pair{k, v})
	}
	return out
}

// stringList decodes a list of strings, reporting each bad item.
func stringList(file string, n *yaml.Node, errs *resources.ErrorList) []item {
	if yamlnode.IsNull(n) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		errs.Addf(pos(file, n), "expected a list of strings, got %s", yamlnode.Describe(n))
		return nil
	}
	out := make([]item, 0, len(n.Content))
	for _, c := range n.Content {
		c = yamlnode.Deref(c)
		if c.Kind != yaml.ScalarNode || yamlnode.IsNull(c) {
			errs.Addf(pos(file, c), "expected a string, got %s", yamlnode.Describe(c))
			continue
		}
		out = append(out, item{c.Value, pos(file, c)})
	}
	return out
}

// item is a string with its position.
type item struct {
	value string
	pos   resources.Pos
}

// parseBool decodes a YAML boolean property.
func (m *Manifest) parseBool(id, key string, n *yaml.Node, errs *resources.ErrorList) *bool {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
		errs.Addf(pos(m.File, n), "%s: %s: expected true or false, got %s", id, key, yamlnode.Describe(n))
		return nil
	}
	b, err := strconv.ParseBool(n.Value)
	if err != nil {
		errs.Addf(pos(m.File, n), "%s: %s: expected true or false, got %q", id, key, n.Value)
		return nil
	}
	return &b
}
