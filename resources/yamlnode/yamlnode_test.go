package yamlnode_test

import (
	"fmt"
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"github.com/reactive-ccm/ccm/resources/yamlnode"
	"go.yaml.in/yaml/v3"
)

func value(t *testing.T, src string) *yaml.Node {
	t.Helper()
	return resourcetest.YAMLNode(t, src).Content[1]
}

func TestDescribe(t *testing.T) {
	for src, want := range map[string]string{
		"v: [1]":    "a list",
		"v: {a: 1}": "a map",
		"v: ~":      "nothing",
		"v:":        "nothing",
		"v: x":      `the string "x"`,
		`v: "5"`:    `the string "5"`,
		"v: 5":      `"5"`,
		"v: true":   `"true"`,
	} {
		if got := yamlnode.Describe(value(t, src)); got != want {
			t.Errorf("%s: %s, want %s", src, got, want)
		}
	}
	if got := yamlnode.Describe(&yaml.Node{Kind: yaml.DocumentNode}); got != "an unsupported YAML node" {
		t.Errorf("document: %s", got)
	}
}

func TestDerefAndIsNull(t *testing.T) {
	m := resourcetest.YAMLNode(t, "a: &x [1]\nb: *x\nc: *x\nd: ~\n")
	a, b := m.Content[1], m.Content[3]
	if b.Kind != yaml.AliasNode || yamlnode.Deref(b) != a || yamlnode.Deref(a) != a || yamlnode.Deref(nil) != nil {
		t.Fatal("Deref does not lead an alias to its anchor, or moves a plain node")
	}
	if !yamlnode.IsNull(nil) || !yamlnode.IsNull(m.Content[7]) || yamlnode.IsNull(a) {
		t.Fatal("IsNull")
	}
}

func ExampleDescribe() {
	var doc yaml.Node
	_ = yaml.Unmarshal([]byte("mode: [644]\nowner: root\n"), &doc)
	m := doc.Content[0]
	for i := 0; i < len(m.Content); i += 2 {
		fmt.Printf("%s: got %s\n", m.Content[i].Value, yamlnode.Describe(m.Content[i+1]))
	}
	// Output:
	// mode: got a list
	// owner: got the string "root"
}
