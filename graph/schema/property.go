package schema

import "github.com/reactive-ccm/ccm/resources"

// template matches a string holding a template expression; a property of
// another kind may be written so, and ccm checks what it resolves to.
var template = map[string]any{"type": "string", "pattern": `\{\{|\$\{`}

// scalar is what a string property accepts: ccm takes any scalar as
// written, so an unquoted version 1.10 stays "1.10".
var scalar = map[string]any{"type": []any{"string", "number", "boolean", "null"}}

// written is what a deferred string accepts: a scalar kept as written.
var written = map[string]any{"type": []any{"string", "number", "boolean"}}

// orTemplate accepts s, or a template that resolves to what s accepts.
func orTemplate(s map[string]any) map[string]any {
	return map[string]any{"anyOf": []any{s, template}}
}

// property is the schema of one property.
func property(p resources.Property) map[string]any {
	s := kindSchema(p)
	s["description"] = p.Help
	return s
}

func kindSchema(p resources.Property) map[string]any {
	if p.Schema != nil {
		return orTemplate(p.Schema)
	}
	switch p.Kind {
	case resources.KindString:
		return stringSchema(p)
	case resources.KindBool:
		return orTemplate(map[string]any{"type": "boolean"})
	case resources.KindInt:
		return orTemplate(map[string]any{"type": "integer"})
	case resources.KindStrings:
		item := scalar
		if p.Deferred {
			item = written
		}
		return orTemplate(map[string]any{"type": []any{"array", "null"}, "items": item})
	case resources.KindInts:
		return orTemplate(map[string]any{"type": []any{"array", "null"}, "items": orTemplate(map[string]any{"type": "integer"})})
	case resources.KindStringMap:
		return map[string]any{"type": []any{"object", "null"}, "additionalProperties": scalar}
	case resources.KindPairs:
		pair := map[string]any{"type": "object", "minProperties": 1, "additionalProperties": map[string]any{"type": "string"}}
		return map[string]any{"type": "array", "items": pair}
	case resources.KindMap:
		return map[string]any{"type": []any{"object", "null"}}
	case resources.KindObject:
		return object(p.Fields)
	case resources.KindObjects:
		return map[string]any{"type": []any{"array", "null"}, "items": object(p.Fields)}
	}
	panic("schema: unknown property kind")
}

func stringSchema(p resources.Property) map[string]any {
	switch {
	case p.Enum != nil:
		enum := make([]any, len(p.Enum))
		for i, e := range p.Enum {
			enum[i] = e
		}
		return orTemplate(map[string]any{"enum": enum})
	case p.Deferred:
		return map[string]any{"type": written["type"]}
	}
	return map[string]any{"type": scalar["type"]}
}

// object is a map with exactly the keys of props.
func object(props []resources.Property) map[string]any {
	fields := map[string]any{}
	for _, p := range props {
		fields[p.Name] = property(p)
	}
	return map[string]any{"type": []any{"object", "null"}, "additionalProperties": false, "properties": fields}
}
