package graph

import (
	"fmt"
	"strconv"

	"github.com/reactive-ccm/ccm/resources"
	"go.yaml.in/yaml/v3"
)

// pos returns the position of n in file.
func pos(file string, n *yaml.Node) resources.Pos {
	return resources.Pos{File: file, Line: n.Line, Col: n.Column}
}

func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null")
}

// kind names a node's shape for error messages.
func kind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a map"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "nothing"
		}
		return fmt.Sprintf("%q", n.Value)
	}
	return "an unsupported YAML node"
}

// pair is one key and its value in a mapping node.
type pair struct{ key, val *yaml.Node }

// pairs lists a mapping's entries, reporting duplicate keys.
func pairs(file string, m *yaml.Node, errs *resources.ErrorList) []pair {
	out := make([]pair, 0, len(m.Content)/2)
	seen := make(map[string]int, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], deref(m.Content[i+1])
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
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		errs.Addf(pos(file, n), "expected a list of strings, got %s", kind(n))
		return nil
	}
	out := make([]item, 0, len(n.Content))
	for _, c := range n.Content {
		c = deref(c)
		if c.Kind != yaml.ScalarNode || isNull(c) {
			errs.Addf(pos(file, c), "expected a string, got %s", kind(c))
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
		errs.Addf(pos(m.File, n), "%s: %s: expected true or false, got %s", id, key, kind(n))
		return nil
	}
	b, err := strconv.ParseBool(n.Value)
	if err != nil {
		errs.Addf(pos(m.File, n), "%s: %s: expected true or false, got %q", id, key, n.Value)
		return nil
	}
	return &b
}
