package graph_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/template"
	"go.yaml.in/yaml/v3"
)

// TestSensitiveHidesWholeValues: a sensitive resource's property holding a
// template shows as redacted whole, the literal text beside the template
// included, and so does a deferred property whatever it holds; the name,
// links and plain literal values stay shown.
func TestSensitiveHidesWholeValues(t *testing.T) {
	v := loadOne(t, `
data: {host: db.example}
ccm:
  resources:
    - probe:
        - x:
            text: "api_key = AKIA-CANARY\nhost = {{ lookup('data.host') }}\n"
            list: ["--token=LIST-CANARY", "${ Data.host }"]
            later: "LATER-CANARY"
            port: 80
            alias: xa
            sensitive: true
`)
	got := v.Properties()
	want := map[string]any{"name": "x", "ensure": "present", "text": "[redacted]", "list": "[redacted]", "later": "[redacted]", "port": 80, "alias": "xa", "sensitive": true}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("properties = %#v, want %#v", got, want)
	}
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "CANARY") {
		t.Fatalf("a literal part shows: %s", b)
	}
}

func TestSecretKeys(t *testing.T) {
	tests := []struct {
		name, props string
		want        []string
	}{
		{"literal values shown", `{text: plain, port: 1}`, nil},
		{"a template anywhere", `{text: "a {{ Facts.os }} b", list: [a, "${ Facts.os }"]}`, []string{"text", "list"}},
		{"a deferred property, literal", `{later: "no template"}`, []string{"later"}},
		{"links stay shown", `{require: ["probe#{{ Facts.os }}"], alias: "{{ Facts.os }}"}`, nil},
	}
	typ, _ := resources.Lookup("probe")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var doc yaml.Node
			if err := yaml.Unmarshal([]byte(tt.props), &doc); err != nil {
				t.Fatal(err)
			}
			got := graph.SecretKeys(typ, doc.Content[0], template.New(template.Env{}))
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("SecretKeys = %q, want %q", got, tt.want)
			}
		})
	}
}
