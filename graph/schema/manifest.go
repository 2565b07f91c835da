package schema

import (
	"maps"

	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/resources"
)

// draft is the JSON Schema dialect generated.
const draft = "http://json-schema.org/draft-07/schema#"

// Manifest is the JSON Schema of a CCM manifest: a map with ccm: (and
// data, hierarchy, overrides), or a bare list of resource blocks.
func Manifest() map[string]any {
	defs := map[string]any{
		"manifest":  manifestTop(),
		"ccm":       ccmSection(),
		"resources": map[string]any{"type": "array", "minItems": 1, "items": ref("block")},
		"block":     block(types()),
	}
	for _, typ := range types() {
		defs[typ.Name+"_block"] = typeBlock(typ)
		defs[typ.Name+"_properties"] = properties(typ, false)
		defs[typ.Name+"_named"] = properties(typ, true)
	}
	return map[string]any{
		"$schema":     draft,
		"title":       "ccm manifest",
		"description": "A CCM manifest: ccm: with resources (and data, hierarchy, overrides), or a bare list of resource blocks",
		"oneOf":       []any{ref("manifest"), ref("resources")},
		"definitions": defs,
	}
}

// manifestTop is the manifest as a map. Its keys, and those of ccm:, are
// the loader's own declarations (graph.TopKeys, graph.CCMKeys).
func manifestTop() map[string]any {
	top := section(graph.TopKeys())
	top["required"] = []any{"ccm"}
	return top
}

// ccmSection is the ccm: section, which needs resources or a Jet file.
func ccmSection() map[string]any {
	ccm := section(graph.CCMKeys())
	ccm["oneOf"] = []any{
		map[string]any{"required": []any{"resources"}},
		map[string]any{"required": []any{"resources_jet_file"}},
	}
	return ccm
}

// section is a map with exactly keys.
func section(keys []graph.SectionKey) map[string]any {
	props := map[string]any{}
	for _, k := range keys {
		if k.Ref != "" {
			props[k.Name] = ref(k.Ref)
			continue
		}
		s := maps.Clone(k.Schema)
		s["description"] = k.Help
		props[k.Name] = s
	}
	return map[string]any{"type": "object", "additionalProperties": false, "properties": props}
}

// block is one resources item: `- TYPE: ...` with exactly one type.
func block(types []resources.Type) map[string]any {
	props := map[string]any{}
	for _, typ := range types {
		props[typ.Name] = ref(typ.Name + "_block")
	}
	return map[string]any{
		"type":                 "object",
		"minProperties":        1,
		"maxProperties":        1,
		"additionalProperties": false,
		"properties":           props,
	}
}

// typeBlock is a type's block: a list of `- NAME: {properties}` entries
// (one of which may be defaults), or one resource as a map with name:.
func typeBlock(typ resources.Type) map[string]any {
	entry := map[string]any{
		"type":                 "object",
		"minProperties":        1,
		"maxProperties":        1,
		"additionalProperties": ref(typ.Name + "_properties"),
	}
	list := map[string]any{"type": "array", "items": entry}
	return map[string]any{
		"description": typ.Help,
		"oneOf":       []any{list, ref(typ.Name + "_named")},
	}
}

// properties is the map of a resource's properties, common ones first;
// named adds the required name key of the single-map form.
func properties(typ resources.Type, named bool) map[string]any {
	all := append(typ.CommonProperties(), typ.Properties()...)
	s := object(all)
	if named {
		s["type"] = "object"
		s["properties"].(map[string]any)["name"] = map[string]any{"type": scalar["type"], "description": typ.NameHelp}
		s["required"] = []any{"name"}
	}
	return s
}

// types lists the registered types, sorted by name.
func types() []resources.Type {
	var out []resources.Type
	for _, name := range resources.TypeNames() {
		t, _ := resources.Lookup(name)
		out = append(out, t)
	}
	return out
}

func ref(def string) map[string]any {
	return map[string]any{"$ref": "#/definitions/" + def}
}
