package schema_test

import (
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/graph/schema"
)

func TestParseRequest(t *testing.T) {
	const proto = `"protocol": "io.choria.ccm.v1.resource.ensure.request"`
	for _, tc := range []struct{ name, src, want string }{
		{"JSON", `{` + proto + `, "type": "package", "properties": {"name": "zsh", "ensure": "present"}}`, ""},
		{"YAML with a merge key", "protocol: io.choria.ccm.v1.resource.ensure.request\ntype: package\n" +
			"properties:\n  <<: {ensure: present}\n  name: zsh\n", ""},
		{"not YAML", `{"type": `, "invalid request: "},
		{"unknown key", `{` + proto + `, "type": "package", "props": {}}`, `unknown request key "props"; valid keys: protocol, type, properties`},
		{"wrong protocol", `{"protocol": "x", "type": "package", "properties": {}}`, `invalid protocol "x"`},
		{"no type", `{` + proto + `, "properties": {}}`, "missing type in request"},
		{"no properties", `{` + proto + `, "type": "package"}`, "missing properties in request"},
		{"properties a list", `{` + proto + `, "type": "package", "properties": [1]}`, "properties: expected a map"},
		{"a manifest-only type", `{` + proto + `, "type": "apply", "properties": {"name": "m.yaml"}}`, "apply resources are written in manifests only"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			typ, props, err := schema.ParseRequest([]byte(tc.src))
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("error %v, want %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var p struct{ Name, Ensure string }
			if err := props.Decode(&p); err != nil || typ != "package" || p.Name != "zsh" || p.Ensure != "present" {
				t.Fatalf("type %q, properties %+v (%v)", typ, p, err)
			}
		})
	}
}
