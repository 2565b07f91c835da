package hiera

import (
	"github.com/reactive-ccm/ccm/resources"
	"go.yaml.in/yaml/v3"
)

// Resolver resolves one templated string, keeping the type of a string
// that is one expression. A nil Resolver keeps strings as written.
type Resolver func(s string) (any, error)

// Value converts a YAML node into plain values (map[string]any, []any,
// string, int, float64, bool, nil), resolving templated strings with
// resolve. Timestamps and other tagged scalars stay the text written.
// Duplicate keys and template errors are reported at their position in file.
// Merge keys (<<) are resolved before, by yamlmerge.Expand, as every
// reader of a document does.
func Value(file string, n *yaml.Node, resolve Resolver) (any, error) {
	var errs resources.ErrorList
	v := convert(file, n, resolve, &errs)
	return v, errs.Err()
}

func convert(file string, n *yaml.Node, resolve Resolver, errs *resources.ErrorList) any {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil
		}
		return convert(file, n.Content[0], resolve, errs)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			out = append(out, convert(file, c, resolve, errs))
		}
		return out
	case yaml.MappingNode:
		return convertMap(file, n, resolve, errs)
	}
	return scalar(file, n, resolve, errs)
}

func scalar(file string, n *yaml.Node, resolve Resolver, errs *resources.ErrorList) any {
	switch n.Tag {
	case "!!str":
		if resolve == nil {
			return n.Value
		}
		v, err := resolve(n.Value)
		if err != nil {
			errs.Add(pos(file, n), err)
		}
		return v
	case "!!int", "!!float", "!!bool", "!!null":
		var v any
		if err := n.Decode(&v); err != nil {
			errs.Addf(pos(file, n), "%v", err)
		}
		return v
	}
	return n.Value
}

// convertMap converts a mapping.
func convertMap(file string, n *yaml.Node, resolve Resolver, errs *resources.ErrorList) map[string]any {
	out := make(map[string]any, len(n.Content)/2)
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if line, dup := seen[k.Value]; dup {
			errs.Addf(pos(file, k), "duplicate key %q (first set at line %d)", k.Value, line)
			continue
		}
		seen[k.Value] = k.Line
		out[k.Value] = convert(file, v, resolve, errs)
	}
	return out
}

func pos(file string, n *yaml.Node) resources.Pos {
	return resources.Pos{File: file, Line: n.Line, Col: n.Column}
}
