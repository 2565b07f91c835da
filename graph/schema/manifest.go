package schema

import "github.com/reactive-ccm/ccm/resources"

// draft is the JSON Schema dialect generated.
const draft = "http://json-schema.org/draft-07/schema#"

// Manifest is the JSON Schema of a CCM manifest: a map with ccm: (and
// data, hierarchy, overrides), or a bare list of resource blocks.
func Manifest() map[string]any {
	defs := map[string]any{
		"manifest":  manifestTop(),
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

func manifestTop() map[string]any {
	hierarchy := map[string]any{
		"type":                 "object",
		"additionalProperties": false,
		"properties": map[string]any{
			"order": map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": "override names, in order; templates that resolve empty skip an entry"},
			"merge": map[string]any{"type": "string", "pattern": "^([Ff][Ii][Rr][Ss][Tt]|[Dd][Ee][Ee][Pp])$", "description": "first (the default): the first match, shallowly; deep: every match, maps merged and lists concatenated"},
		},
	}
	ccm := map[string]any{
		"type":                 "object",
		"additionalProperties": false,
		"properties": map[string]any{
			"pre_message":        map[string]any{"type": "string", "description": "printed before the run"},
			"post_message":       map[string]any{"type": "string", "description": "printed after a run without errors"},
			"fail_on_error":      map[string]any{"type": "boolean", "description": "stop the run at the first failure"},
			"resources":          ref("resources"),
			"resources_jet_file": map[string]any{"type": "string", "description": "a Jet template rendering the resources list, relative to the manifest"},
		},
		"oneOf": []any{
			map[string]any{"required": []any{"resources"}},
			map[string]any{"required": []any{"resources_jet_file"}},
		},
	}
	return map[string]any{
		"type":                 "object",
		"additionalProperties": false,
		"required":             []any{"ccm"},
		"properties": map[string]any{
			"data":      map[string]any{"type": []any{"object", "null"}, "description": "hiera data for templates"},
			"hierarchy": hierarchy,
			"overrides": map[string]any{"type": []any{"object", "null"}, "additionalProperties": map[string]any{"type": []any{"object", "null"}}, "description": "data merged over data, keyed by hierarchy entries"},
			"ccm":       ccm,
		},
	}
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
