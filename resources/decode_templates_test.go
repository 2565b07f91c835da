package resources_test

import (
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

type templatedProps struct {
	Ensure  string            `yaml:"ensure"`
	Count   int               `yaml:"count"`
	Flag    bool              `yaml:"flag"`
	Ratio   string            `yaml:"ratio"`
	Names   []string          `yaml:"names"`
	Labels  map[string]string `yaml:"labels"`
	Command string            `yaml:"command" ccm:"deferred"`
}

// decodeWith decodes src, a mapping, with vars as the templates.
func decodeWith(t *testing.T, vars resourcetest.Vars, src string) (templatedProps, error) {
	t.Helper()
	var p templatedProps
	typ := resources.Type{Name: "t", Props: templatedProps{}, New: func(spec *resources.Spec) (resources.Instance, error) {
		return resources.Instance{}, spec.Decode(&p)
	}}
	_, err := typ.Build(&resources.Spec{Type: "t", Name: "n", Props: resourcetest.YAMLNode(t, src), Pos: resources.Pos{File: "m.yaml", Line: 1, Col: 1}, Templates: vars})
	return p, err
}

// TestDecodeResolvesTemplatesToTheirType: a property that is exactly one
// expression takes the value's type (an integer, a boolean, a list, a
// map, nothing), checked as if written; a deferred property is kept as
// written.
func TestDecodeResolvesTemplatesToTheirType(t *testing.T) {
	vars := resourcetest.Vars{"n": 3, "on": true, "f": 0.5, "list": []any{"a", "b"}, "m": map[string]any{"k": "v"}, "none": nil, "who": "web"}
	p, err := decodeWith(t, vars, `
ensure: "{{ none }}"
count: "{{ n }}"
flag: "{{ on }}"
ratio: "{{ f }}"
names: ["{{ who }}", "x-{{ who }}"]
labels: "{{ m }}"
command: "echo {{ who }}"
`)
	if err != nil {
		t.Fatal(err)
	}
	if p.Ensure != "" || p.Count != 3 || !p.Flag || p.Ratio != "0.5" || strings.Join(p.Names, ",") != "web,x-web" ||
		p.Labels["k"] != "v" || p.Command != "echo {{ who }}" {
		t.Fatalf("decoded %+v", p)
	}
	p, err = decodeWith(t, vars, `names: "{{ list }}"`)
	if err != nil || strings.Join(p.Names, ",") != "a,b" {
		t.Fatalf("a list from a template: %+v, %v", p.Names, err)
	}
}

// TestDecodeTemplateErrors: a template value of the wrong type is an
// error at the property's position that does not show the value; a
// template that fails says so.
func TestDecodeTemplateErrors(t *testing.T) {
	vars := resourcetest.Vars{"word": "many-secrets", "list": []any{"a"}}
	for _, tc := range []struct{ name, src, want string }{
		{"a string where an integer goes", `count: "{{ word }}"`, "m.yaml:1:8: count: expected an integer"},
		{"a list where a string goes", `ensure: "{{ list }}"`, "m.yaml:1:9: ensure: expected a string, got a list"},
		{"an unknown name", `ensure: "{{ nope }}"`, `unknown name "nope"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := decodeWith(t, vars, tc.src)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "many-secrets") {
				t.Fatalf("the error shows what the template resolved to: %v", err)
			}
		})
	}
}
