package graph_test

import (
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"go.yaml.in/yaml/v3"
)

// render renders src with vars as the templates and returns the output
// as YAML.
func render(t *testing.T, src string, vars resourcetest.Vars) (string, graph.Rendered) {
	t.Helper()
	opts := graph.Options{Templates: func(*graph.Manifest) (resources.Templates, error) { return vars, nil }}
	return renderFile(t, writeManifest(t, "m.yaml", src), opts)
}

// renderFile renders the manifest file with opts and returns the output
// as YAML.
func renderFile(t *testing.T, file string, opts graph.Options) (string, graph.Rendered) {
	t.Helper()
	r, err := graph.Render(file, opts)
	if err != nil {
		t.Fatal(err)
	}
	b, err := yaml.Marshal(r.Document)
	if err != nil {
		t.Fatal(err)
	}
	return string(b), r
}

// TestRenderReadsResourcesAsTheGraphDoes: one block per resource, in
// written order, the block's defaults merged in, names and values
// resolved, a value that cannot be resolved yet kept as written and
// listed with its position.
func TestRenderReadsResourcesAsTheGraphDoes(t *testing.T) {
	out, r := render(t, `
ccm:
  pre_message: "on {{ role }}"
  resources:
    - thing:
        - defaults: {flag: true}
        - "{{ role }}-one": {value: "{{ role }}"}
        - two: {value: "{{ missing }}", require: [thing#web-one]}
    - thing:
        name: three
        count: 3
`, resourcetest.Vars{"role": "web"})
	for _, want := range []string{
		"pre_message: on web",
		"- thing:\n            - web-one:\n                value: web\n                flag: true",
		"- thing:\n            - two:\n                value: '{{ missing }}'\n                require: [thing#web-one]\n                flag: true",
		"- thing:\n            - three:\n                count: 3",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("render lacks\n%s\nin\n%s", want, out)
		}
	}
	if strings.Contains(out, "defaults") {
		t.Errorf("the defaults entry is printed on its own:\n%s", out)
	}
	if len(r.Unresolved) != 1 || !strings.Contains(r.Unresolved[0], "m.yaml:8:") || !strings.Contains(r.Unresolved[0], `unknown name "missing"`) {
		t.Errorf("unresolved %v", r.Unresolved)
	}
}

// TestRenderRedactsSensitiveResources: a sensitive resource (by its own
// flag or its block's defaults) shows its templated values as
// [redacted], its literal ones and its links as written.
func TestRenderRedactsSensitiveResources(t *testing.T) {
	out, _ := render(t, `
- thing:
    - defaults: {sensitive: true}
    - a: {value: "{{ token }}", owns: /etc/app, require: [thing#b]}
    - b: {value: plain}
`, resourcetest.Vars{"token": "hunter22"})
	if strings.Contains(out, "hunter22") || !strings.Contains(out, "value: '[redacted]'") ||
		!strings.Contains(out, "owns: /etc/app") || !strings.Contains(out, "require: [thing#b]") || !strings.Contains(out, "value: plain") {
		t.Fatalf("render:\n%s", out)
	}
}

// TestRenderRefusesWhatTheGraphRefuses: a manifest whose resources the
// graph cannot read is an error, as when it loads.
func TestRenderRefusesWhatTheGraphRefuses(t *testing.T) {
	_, err := graph.Render(writeManifest(t, "m.yaml", "- nope:\n    - a: {}\n"), graph.Options{})
	if err == nil || !strings.Contains(err.Error(), `unknown resource type "nope"`) {
		t.Fatalf("error %v", err)
	}
}
