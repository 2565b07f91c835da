package graph_test

import (
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// TestRenderValues: a value that is one template shows the type it
// resolves to, anchors are not printed, and a sensitive map keeps its
// keys and hides its values.
func TestRenderValues(t *testing.T) {
	out, r := render(t, `
- thing:
    - a: {count: "{{ n }}", list: &l [x, "{{ who }}"], value: "pre-{{ who }}"}
    - b: {list: *l}
    - c: {sensitive: true, value: {user: "{{ who }}", note: plain}}
`, resourcetest.Vars{"n": 3, "who": "web"})
	for _, want := range []string{"count: 3\n", "list: [x, web]", "value: pre-web", "user: '[redacted]'", "note: '[redacted]'"} {
		if !strings.Contains(out, want) {
			t.Errorf("render lacks %q in\n%s", want, out)
		}
	}
	for _, not := range []string{"&l", "*l", "count: \"3\"", "user: web"} {
		if strings.Contains(out, not) {
			t.Errorf("render shows %q in\n%s", not, out)
		}
	}
	if len(r.Unresolved) != 0 {
		t.Errorf("unresolved %v", r.Unresolved)
	}
}

// TestRenderMessagesAndJet: messages are resolved, or kept as written and
// listed; a Jet file needs the command to support it.
func TestRenderMessagesAndJet(t *testing.T) {
	_, r := render(t, "ccm:\n  post_message: \"{{ nope }}\"\n  resources:\n    - thing:\n        - a: {}\n", resourcetest.Vars{})
	if len(r.Unresolved) != 1 || !strings.HasSuffix(r.Unresolved[0], `: unknown name "nope"`) || r.Document["ccm"].(map[string]any)["post_message"] != "{{ nope }}" {
		t.Errorf("an unresolved message: %v, %v", r.Unresolved, r.Document["ccm"])
	}
	_, err := graph.Render(writeManifest(t, "m.yaml", "ccm:\n  resources_jet_file: r.jet\n"), graph.Options{})
	if err == nil || !strings.Contains(err.Error(), "m.yaml:2:23: resources_jet_file is not supported by this command") {
		t.Errorf("a Jet file without Jet: %v", err)
	}
}
