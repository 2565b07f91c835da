package resources

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// decodeProps is a property struct exercising each kind Decode handles.
type decodeProps struct {
	Ensure  string            `yaml:"ensure"`
	Enable  bool              `yaml:"enable"`
	Count   int               `yaml:"count"`
	Limit   *int              `yaml:"limit"`
	Names   []string          `yaml:"names"`
	Labels  map[string]string `yaml:"labels"`
	Extra   any               `yaml:"extra"`
	Command string            `yaml:"command" ccm:"deferred"`
}

// mapping parses src, a YAML mapping, into its node.
func mapping(t *testing.T, src string) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatalf("bad YAML in test: %v", err)
	}
	if len(doc.Content) == 0 {
		return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: 1, Column: 1}
	}
	return doc.Content[0]
}

// buildSpec decodes src through a type as Type.Build makes it, so the
// spec knows the type's common properties.
func buildSpec(t *testing.T, typ Type, src string) (decodeProps, error) {
	t.Helper()
	var p decodeProps
	typ.Props = decodeProps{}
	typ.New = func(spec *Spec) (Instance, error) { return Instance{}, spec.Decode(&p) }
	spec := &Spec{Type: typ.Name, Name: "x", Props: mapping(t, src), Pos: Pos{File: "m.yaml", Line: 1, Col: 1}, Templates: Literal{}}
	_, err := typ.Build(spec)
	return p, err
}

func TestDecodeSuggestsCommonProperties(t *testing.T) {
	plain := Type{Name: "thing"}
	refreshed := Type{Name: "thing", Subscribes: true, Undoable: true}
	for _, tc := range []struct {
		name string
		typ  Type
		src  string
		want string
	}{
		{"own property misspelt", plain, "ensur: present", `did you mean "ensure"?`},
		{"rollback misspelt", refreshed, "rollbak: true", `unknown property "rollbak" for thing#x; did you mean "rollback"?`},
		{"sensitive misspelt", plain, "sensitve: true", `did you mean "sensitive"?`},
		{"require as requires", plain, "requires: [file#/a]", `did you mean "require"?`},
		{"health_checks without the s", plain, "health_check: []", `did you mean "health_checks"?`},
		{"subscribe misspelt on a type that subscribes", refreshed, "subscrib: [x#y]", `did you mean "subscribe"?`},
		{"nothing near: own and common listed", plain, "zzzz: 1",
			`unknown property "zzzz" for thing#x; valid properties: command, count, enable, ensure, extra, labels, limit, names; ` +
				`and those every resource takes: alias, control, health_checks, register_when_stable, require, sensitive`},
		{"subscribe and rollback listed only where taken", refreshed, "zzzz: 1",
			`and those every resource takes: alias, control, health_checks, register_when_stable, require, rollback, sensitive, subscribe`},
		{"rollback not suggested to a type that cannot undo", plain, "rollbak: true", `valid properties: `},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := buildSpec(t, tc.typ, tc.src)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestDecodeWithoutBuildListsNoCommonProperties(t *testing.T) {
	// A health check's entry decodes through a spec Build did not make:
	// require and the rest are not its properties.
	spec := &Spec{Type: "thing", Name: "x", Props: mapping(t, "requires: 1"), Templates: Literal{}}
	var p decodeProps
	err := spec.Decode(&p)
	if err == nil || strings.Contains(err.Error(), "every resource") || strings.Contains(err.Error(), "did you mean") {
		t.Fatalf("a spec without a type suggested common properties: %v", err)
	}
	var c struct {
		Interval string `yaml:"interval"`
	}
	err = DecodeDocument("c.yaml", "the agent configuration", mapping(t, "sensitve: true"), &c)
	if err == nil || strings.Contains(err.Error(), "every resource") || strings.Contains(err.Error(), "did you mean") {
		t.Fatalf("a document was offered the common properties: %v", err)
	}
}

func TestDecodeValues(t *testing.T) {
	p, err := buildSpec(t, Type{Name: "thing"}, `
ensure: 1.10
enable: true
count: 7
limit: 3
names: [a, b]
labels: {k: v}
extra: {deep: [1, 2]}
command: "echo {{ x }}"
`)
	if err != nil {
		t.Fatal(err)
	}
	if p.Ensure != "1.10" || !p.Enable || p.Count != 7 || p.Limit == nil || *p.Limit != 3 ||
		len(p.Names) != 2 || p.Labels["k"] != "v" || p.Extra == nil || p.Command != "echo {{ x }}" {
		t.Fatalf("decoded %+v", p)
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"bool as a word", "enable: yes please", `m.yaml:1:9: enable: expected true or false, got the string "yes please"`},
		{"int as a word", "count: many", `m.yaml:1:8: count: expected an integer, got the string "many"`},
		{"string as a list", "ensure: [a]", `m.yaml:1:9: ensure: expected a string, got a list`},
		{"list as a scalar", "names: a", `names: expected a list, got the string "a"`},
		{"list item as a map", "names: [a, {b: c}]", `names: item 2: expected a string, got a map`},
		{"map as a list", "labels: [a]", `labels: expected a map, got a list`},
		{"duplicate inside a value", "extra: {a: 1, a: 2}", `extra: duplicate key "a" at line 1`},
		{"duplicate property", "ensure: a\nensure: b", `m.yaml:2:1: duplicate property "ensure" (first set at line 1)`},
		{"deferred as a map", "command: {a: b}", `command: expected a string`},
		{"every problem at once", "count: x\nenable: y", "count: expected an integer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := buildSpec(t, Type{Name: "thing"}, tc.src)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}
