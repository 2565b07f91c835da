package schema

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
