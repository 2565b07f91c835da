package graph_test

import (
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"go.yaml.in/yaml/v3"
)

// TestShapeErrors: each part of a manifest written in the wrong shape is
// reported where it is written, saying what was expected and what was
// found.
func TestShapeErrors(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"alias as a list", "- thing:\n    - a: {alias: [x]}\n", "m.yaml:2:18: thing#a: alias: expected a string, got a list"},
		{"sensitive as a word", "- thing:\n    - a: {sensitive: maybe}\n", `m.yaml:2:22: thing#a: sensitive: expected true or false, got the string "maybe"`},
		{"require as a string", "- thing:\n    - a: {require: thing#b}\n    - b: {}\n", `m.yaml:2:20: expected a list of strings, got the string "thing#b"`},
		{"require with a map item", "- thing:\n    - a: {require: [{x: 1}]}\n", "m.yaml:2:21: expected a string, got a map"},
		{"control as a string", "- thing:\n    - a: {control: yes}\n", `m.yaml:2:20: thing#a: control: expected a map with if and unless, got the string "yes"`},
		{"control with a list", "- thing:\n    - a: {control: {if: [x]}}\n", "m.yaml:2:25: thing#a: control.if: expected an expression or true/false, got a list"},
		{"properties as a list", "- thing:\n    - a: [x]\n", "m.yaml:2:10: thing#a: properties must be a map (use {} for none), got a list"},
		{"entries as a string", "- thing: hello\n", `m.yaml:1:10: thing: expected a list of ` + "`- NAME: {properties}`" + ` entries or a map with name:, got the string "hello"`},
		{"name as a list", "- thing:\n    name: [a]\n", "m.yaml:2:11: thing: name: expected a string, got a list"},
		{"the manifest a string", "hello\n", `m.yaml:1:1: a manifest is a map with a ccm: key, or a list of resources; got the string "hello"`},
		{"ccm a list", "ccm: [a]\n", "m.yaml:1:6: ccm: expected a map, got a list"},
		{"resources a map", "ccm:\n  resources: {a: 1}\n", "m.yaml:2:14: resources: expected a list of resource blocks, got a map"},
		{"data a list", "data: [a]\nccm:\n  resources:\n    - thing:\n        - a: {}\n", "m.yaml:1:7: data: expected a map, got a list"},
		{"pre_message a map", "ccm:\n  pre_message: {a: 1}\n  resources:\n    - thing:\n        - a: {}\n", "m.yaml:2:16: pre_message: expected a string, got a map"},
		{"fail_on_error a word", "ccm:\n  fail_on_error: sometimes\n  resources:\n    - thing:\n        - a: {}\n", `m.yaml:2:18: fail_on_error: expected true or false, got the string "sometimes"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := loadErr(t, tc.src); !strings.Contains(got, tc.want) {
				t.Fatalf("error:\n%s\nwant it to contain:\n%s", got, tc.want)
			}
		})
	}
}

// TestPrepareYAML readies a document parsed elsewhere (an ensure request,
// the agent's configuration) as manifests are: merge keys resolved, alias
// bombs refused.
func TestPrepareYAML(t *testing.T) {
	doc := resourcetest.YAMLDoc(t, "d: &d {a: 1}\nx: {<<: *d, b: 2}\n")
	if err := graph.PrepareYAML("r.yaml", doc); err != nil {
		t.Fatal(err)
	}
	var got map[string]map[string]int
	if err := doc.Decode(&got); err != nil || got["x"]["a"] != 1 || got["x"]["b"] != 2 || len(got["x"]) != 2 {
		t.Fatalf("merged %v, %v", got, err)
	}
	var bomb yaml.Node
	if err := yaml.Unmarshal([]byte(mergeBomb()), &bomb); err != nil {
		t.Fatal(err)
	}
	if err := graph.PrepareYAML("r.yaml", &bomb); err == nil || !strings.Contains(err.Error(), "r.yaml:") {
		t.Fatalf("an alias bomb was not refused with its position: %v", err)
	}
}
