package schema

import (
	"errors"
	"fmt"

	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/resources"
	"go.yaml.in/yaml/v3"
)

// RequestProtocol names an ensure request of `ccm ensure api pipe`.
const RequestProtocol = "io.choria.ccm.v1.resource.ensure.request"

// Request is the JSON Schema of an ensure request: the protocol, a type
// `ccm ensure` offers, and that type's properties with name.
func Request() map[string]any {
	defs := map[string]any{}
	var names, cases []any
	for _, typ := range types() {
		if typ.ManifestOnly {
			continue
		}
		names = append(names, typ.Name)
		defs[typ.Name+"_named"] = properties(typ, true)
		cases = append(cases, map[string]any{
			"if":   map[string]any{"properties": map[string]any{"type": map[string]any{"const": typ.Name}}},
			"then": map[string]any{"properties": map[string]any{"properties": ref(typ.Name + "_named")}},
		})
	}
	return map[string]any{
		"$schema":              draft,
		"title":                "ccm ensure request",
		"description":          "One resource for `ccm ensure api pipe` to converge",
		"type":                 "object",
		"additionalProperties": false,
		"required":             []any{"protocol", "type", "properties"},
		"properties": map[string]any{
			"protocol":   map[string]any{"const": RequestProtocol},
			"type":       map[string]any{"enum": names},
			"properties": map[string]any{"type": "object", "description": "the resource's properties, name included, as a manifest writes them"},
		},
		"allOf":       cases,
		"definitions": defs,
	}
}

// ParseRequest checks an ensure request (`ccm ensure api pipe`) as
// upstream does, with its messages, and returns the type and the
// properties. Its YAML is bounded as a manifest's is (graph.PrepareYAML).
func ParseRequest(src []byte) (string, *yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return "", nil, fmt.Errorf("invalid request: %w", err)
	}
	if err := graph.PrepareYAML("request", &doc); err != nil {
		return "", nil, fmt.Errorf("invalid request: %w", err)
	}
	var protocol, typ string
	var props *yaml.Node
	if len(doc.Content) > 0 && doc.Content[0].Kind == yaml.MappingNode {
		m := doc.Content[0]
		for i := 0; i+1 < len(m.Content); i += 2 {
			k, v := m.Content[i].Value, m.Content[i+1]
			switch k {
			case "protocol":
				protocol = v.Value
			case "type":
				typ = v.Value
			case "properties":
				props = v
			default:
				return "", nil, fmt.Errorf("unknown request key %q; valid keys: protocol, type, properties", k)
			}
		}
	}
	switch {
	case protocol != RequestProtocol:
		return "", nil, fmt.Errorf("invalid protocol %q", protocol)
	case typ == "":
		return "", nil, errors.New("missing type in request")
	case props == nil || props.Tag == "!!null":
		return "", nil, errors.New("missing properties in request")
	case props.Kind != yaml.MappingNode:
		return "", nil, errors.New("properties: expected a map of the resource's properties")
	}
	if t, ok := resources.Lookup(typ); ok && t.ManifestOnly {
		return "", nil, fmt.Errorf("%s resources are written in manifests only; they cannot be ensured on their own", typ)
	}
	return typ, props, nil
}
