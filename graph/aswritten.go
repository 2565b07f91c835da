package graph

import (
	"github.com/reactive-ccm/ccm/resources/yamlnode"
	"go.yaml.in/yaml/v3"
)

// asWritten is a resource's properties as written (the block's defaults
// merged), kept for Vertex.Properties in the form decoding their YAML
// gives: the YAML nodes, several times larger, are not kept past loading.
type asWritten struct {
	props []asWrittenProp
	// defaults, shared by the resources of a block, are its defaults
	// entry's properties, each of which a resource has unless props sets
	// it; nil when props holds them merged.
	defaults *blockDefaults
}

// asWrittenProp is one property: its value as yaml decodes it into an any.
type asWrittenProp struct {
	key   string
	value any
}

// blockDefaults are the properties of a block's defaults entry.
type blockDefaults struct {
	props []asWrittenProp
	// apart is set when they may be kept apart from each resource's own:
	// their keys are plain strings, so none merges others in.
	apart bool
}

// newBlockDefaults returns the properties of a defaults entry, nil for
// none.
func newBlockDefaults(n *yaml.Node) *blockDefaults {
	if n == nil {
		return nil
	}
	return &blockDefaults{props: propsOf(n), apart: stringKeys(yamlnode.Deref(n))}
}

// asWrittenOf returns what is kept of merged, the properties of a
// resource, which are own with the block's defaults merged in (own and
// defaults nil outside a block with defaults): own and the block's
// defaults, apart, when neither merges keys in.
func asWrittenOf(merged, own *yaml.Node, defaults *blockDefaults) asWritten {
	if defaults != nil && defaults.apart && stringKeys(yamlnode.Deref(own)) {
		return asWritten{props: propsOf(own), defaults: defaults}
	}
	return asWritten{props: propsOf(merged)}
}

// propsOf returns the properties of the mapping node n. Strings and
// nulls, most of what manifests hold, are taken as they are; other
// scalars, and maps with keys that are not strings or merge others, are
// decoded by yaml itself, so each value is what decoding the whole
// mapping would give.
func propsOf(n *yaml.Node) []asWrittenProp {
	n = yamlnode.Deref(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	if !stringKeys(n) {
		var m map[string]any
		// A mapping always decodes into a map; a failure leaves the
		// properties it decoded, as Properties always did.
		_ = n.Decode(&m)
		out := make([]asWrittenProp, 0, len(m))
		for k, v := range m {
			out = append(out, asWrittenProp{k, v})
		}
		return out
	}
	out := make([]asWrittenProp, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		out = append(out, asWrittenProp{n.Content[i].Value, decoded(n.Content[i+1])})
	}
	return out
}

// stringKeys reports whether every key of the mapping n is a plain
// string: no merge, no key yaml would decode to another type.
func stringKeys(n *yaml.Node) bool {
	if n == nil || n.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i < len(n.Content); i += 2 {
		if k := n.Content[i]; k.Kind != yaml.ScalarNode || k.Tag != "!!str" {
			return false
		}
	}
	return true
}

// decoded returns what yaml decodes n into, as an any.
func decoded(n *yaml.Node) any {
	n = yamlnode.Deref(n)
	switch {
	case n.Kind == yaml.ScalarNode && n.Tag == "!!str":
		return n.Value
	case n.Kind == yaml.ScalarNode && n.Tag == "!!null":
		return nil
	case n.Kind == yaml.SequenceNode && n.Tag == "!!seq":
		out := make([]any, len(n.Content))
		for i, c := range n.Content {
			out[i] = decoded(c)
		}
		return out
	case n.Kind == yaml.MappingNode && n.Tag == "!!map" && stringKeys(n):
		out := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			out[n.Content[i].Value] = decoded(n.Content[i+1])
		}
		return out
	}
	var v any
	_ = n.Decode(&v)
	return v
}

// properties returns a map of the properties, for the caller to change:
// maps and lists are copied.
func (w asWritten) properties() map[string]any {
	out := make(map[string]any, len(w.props)+2)
	for _, p := range w.props {
		out[p.key] = copied(p.value)
	}
	if w.defaults != nil {
		for _, p := range w.defaults.props {
			if _, set := out[p.key]; !set {
				out[p.key] = copied(p.value)
			}
		}
	}
	return out
}

// copied returns v with its maps and lists copied, however deep.
func copied(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = copied(x)
		}
		return out
	case map[any]any:
		out := make(map[any]any, len(v))
		for k, x := range v {
			out[k] = copied(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = copied(x)
		}
		return out
	}
	return v
}
