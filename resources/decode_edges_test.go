package resources_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"go.yaml.in/yaml/v3"
)

// edgeBase is inlined into edgeProps: its keys are edgeProps' own.
type edgeBase struct {
	Owner string `yaml:"owner"`
}

// edgeProps holds the shapes decodeProps (decode_test.go) leaves out: an
// inline struct, a skipped field, an untagged field, narrower integers,
// a map of integers, a deferred list and a pointer to a bool.
type edgeProps struct {
	edgeBase `yaml:",inline"`
	Hidden   string `yaml:"-"`
	Untagged string
	Small    int32             `yaml:"small"`
	Big      int64             `yaml:"big"`
	Sizes    map[string]int    `yaml:"sizes"`
	Ports    []int             `yaml:"ports"`
	Args     []string          `yaml:"args" ccm:"deferred"`
	Check    string            `yaml:"check" ccm:"deferred"`
	Force    *bool             `yaml:"force"`
	Env      map[string]string `yaml:"env"`
}

// edgeDecoded is what the last build of an "edge" resource decoded.
var edgeDecoded edgeProps

func init() {
	resources.Register(resources.Type{Name: "edge", Props: edgeProps{}, New: func(spec *resources.Spec) (resources.Instance, error) {
		edgeDecoded = edgeProps{}
		return resources.Instance{}, spec.Decode(&edgeDecoded)
	}})
}

// compiling is a template environment that compiles expressions without
// running them, as the real one does for deferred properties: "{{ bad }}"
// does not compile.
type compiling struct{ resources.Templates }

func (compiling) Compile(s string) error {
	if strings.Contains(s, "bad") {
		return errors.New("unknown function bad")
	}
	return nil
}

func TestDecodeShapes(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		check     func(p edgeProps) bool
	}{
		{"an inline struct's keys are the type's own", "owner: root", func(p edgeProps) bool { return p.Owner == "root" }},
		{"an int32 and an int64", "small: -5\nbig: 9000000000", func(p edgeProps) bool { return p.Small == -5 && p.Big == 9000000000 }},
		{"a map of integers", "sizes: {a: 1, b: 2}", func(p edgeProps) bool { return p.Sizes["a"] == 1 && p.Sizes["b"] == 2 }},
		{"a list of integers", "ports: [80, 443]", func(p edgeProps) bool { return fmt.Sprint(p.Ports) == "[80 443]" }},
		{"a deferred list kept as written", `args: ["{{ a }}", b]`, func(p edgeProps) bool { return fmt.Sprint(p.Args) == "[{{ a }} b]" }},
		{"false through a pointer is set, not left nil", "force: false", func(p edgeProps) bool { return p.Force != nil && !*p.Force }},
		{"null through a pointer leaves it nil", "force: ~", func(p edgeProps) bool { return p.Force == nil }},
		{"null list and map are empty", "ports: ~\nenv: ~", func(p edgeProps) bool { return p.Ports == nil && p.Env == nil }},
		{"null string is empty", "owner: ~", func(p edgeProps) bool { return p.Owner == "" }},
		{"an alias decodes as its anchor", "owner: &o root\nenv: {k: *o}", func(p edgeProps) bool { return p.Env["k"] == "root" }},
		{"a number as a string keeps its text", "owner: 0755", func(p edgeProps) bool { return p.Owner == "0755" }},
		{"a map value's alias is followed", "ports: [1]\nenv: {k: &v hi, j: *v}", func(p edgeProps) bool { return p.Env["j"] == "hi" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := resourcetest.Build(t, "edge", "x", tc.src, "")
			if err != nil || !tc.check(edgeDecoded) {
				t.Fatalf("decoded %+v, %v", edgeDecoded, err)
			}
		})
	}
}

func TestDecodeShapeErrors(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"a skipped field is no property", "Hidden: x", `test.yaml:1:1: unknown property "Hidden" for edge#x`},
		{"an untagged field is no property", "Untagged: x", `unknown property "Untagged"`},
		{"an int32 written as a float", "small: 1.5", `test.yaml:1:8: small: expected an integer, got "1.5"`},
		{"an int32 too large", "small: 3000000000", `test.yaml:1:8: small: expected an integer that fits in 32 bits, got 3000000000`},
		{"an int64 too large", "big: 99999999999999999999", `big: expected an integer, got "99999999999999999999"`},
		{"a map value of the wrong type", "sizes: {a: x}", `sizes: a: expected an integer, got the string "x"`},
		{"a list item of the wrong type at the item", "ports: [1,\n  two]", `test.yaml:2:3: ports: item 2: expected an integer`},
		{"a deferred list that is a string", "args: a", `args: expected a list of strings, got the string "a"`},
		{"a deferred list item that is a map, at the item", "args:\n  - a\n  - {b: c}", `test.yaml:3:5: args: item 2: expected a string, got a map`},
		{"a deferred list item that is null", "args: [a, ~]", `args: item 2: expected a string`},
		{"a deferred string that is null", "check: ~", `check: expected a string`},
		{"a bool written as a string", `force: "true"`, `force: expected true or false, got the string "true"`},
		{"a bool tag on a word", "force: !!bool maybe", `test.yaml:1:8: force: expected true or false, got "maybe"`},
		{"an int tag on a word", "small: !!int seven", `test.yaml:1:8: small: expected an integer, got "seven"`},
		{"a nested duplicate in a map of strings", "env: {a: b, a: c}", `env: duplicate key "a" at line 1`},
		{"a key that is not a string", "env: {[a]: b}", `env: key "": expected a string, got a list`},
		{"problems in file order, all of them", "small: x\nowner: [y]\nbig: z", "test.yaml:1:8: small: expected an integer, got the string \"x\"\n" +
			"test.yaml:2:8: owner: expected a string, got a list\ntest.yaml:3:6: big: expected an integer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := resourcetest.BuildError(t, "edge", "x", tc.src, "")
			if !strings.Contains(got, tc.want) {
				t.Fatalf("error\n%s\nwant it to contain\n%s", got, tc.want)
			}
		})
	}
}

// TestDecodeCompilesDeferredTemplates: a deferred template that does not
// compile is refused when the manifest loads, at the item holding it, and
// one that compiles is kept as written.
func TestDecodeCompilesDeferredTemplates(t *testing.T) {
	tmpl := compiling{resourcetest.Vars{}}
	for _, tc := range []struct{ name, src, want string }{
		{"a string that compiles", `check: "{{ ok }}"`, ""},
		{"a string that does not", `check: "{{ bad }}"`, "test.yaml:1:8: check: unknown function bad"},
		{"the list item that does not", "args:\n  - \"{{ ok }}\"\n  - \"{{ bad }}\"", "test.yaml:3:5: args: unknown function bad"},
		{"text without expressions is not compiled", "check: bad", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := resourcetest.BuildWith(t, "edge", "x", tc.src, "", tmpl)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Fatalf("error %q, want %q", got, tc.want)
			}
		})
	}
}

// TestDecodeInsistsOnTheDeclaredProps: decoding into another struct than
// the type declares is a programming error found by the first test.
func TestDecodeInsistsOnTheDeclaredProps(t *testing.T) {
	typ := resources.Type{Name: "mismatched", Props: edgeProps{}, New: func(spec *resources.Spec) (resources.Instance, error) {
		var other struct{}
		return resources.Instance{}, spec.Decode(&other)
	}}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "declares resources_test.edgeProps") {
			t.Fatalf("recovered %v", r)
		}
	}()
	_, _ = typ.Build(&resources.Spec{Type: "mismatched", Name: "x", Props: &yaml.Node{Kind: yaml.MappingNode}, Templates: resources.Literal{}})
}

// TestDecodeDocument: ExampleDecodeDocument shows its errors.
func TestDecodeDocument(t *testing.T) {
	type settings struct {
		Interval string   `yaml:"interval"`
		Servers  []string `yaml:"servers"`
	}
	for _, tc := range []struct{ name, src, want, err string }{
		{"settings decoded", "interval: 5m\nservers: [a, b]", "5m [a b]", ""},
		{"templates are not resolved", `interval: "{{ x }}"`, "{{ x }} []", ""},
		{"not a map", "- a", "", "c.yaml:1:1: the agent configuration must be a map of settings, got a list"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s settings
			err := resources.DecodeDocument("c.yaml", "the agent configuration", resourcetest.YAMLNode(t, tc.src), &s)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.err || (err == nil && fmt.Sprintf("%s %v", s.Interval, s.Servers) != tc.want) {
				t.Fatalf("decoded %+v, error %q; want %q, %q", s, got, tc.want, tc.err)
			}
		})
	}
}
