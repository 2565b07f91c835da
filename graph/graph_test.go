package graph_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/resources"
)

// thing is a resource type for graph tests.
type thingProps struct {
	Ensure string   `yaml:"ensure"`
	Value  string   `yaml:"value"`
	Flag   bool     `yaml:"flag"`
	Count  int      `yaml:"count"`
	List   []string `yaml:"list"`
	Owns   string   `yaml:"owns"`
	Uses   string   `yaml:"uses"`
	// Independent marks the thing as one that may run beside its
	// independent neighbours in written order.
	Independent bool `yaml:"independent"`
	// Claim is "whole:PATH" or "part:PATH", a claim on a file's content.
	Claim string `yaml:"claim"`
}

type thing struct{ p thingProps }

func (thing) Watch() resources.WatchSpec { return resources.WatchSpec{} }
func (thing) Check(context.Context) (resources.Status, error) {
	return resources.Status{Desired: true}, nil
}
func (thing) Apply(context.Context, resources.Request) (resources.Change, error) {
	return resources.Change{}, nil
}

func init() {
	resources.Register(resources.Type{Name: "thing", Subscribes: true, New: func(spec *resources.Spec) (resources.Instance, error) {
		var p thingProps
		if err := spec.Decode(&p); err != nil {
			return resources.Instance{}, err
		}
		if p.Ensure == "bad" {
			return resources.Instance{}, resources.Errorf(spec.KeyPos("ensure"), "%s: ensure %q is not valid", spec.ID(), p.Ensure)
		}
		inst := resources.Instance{Resource: thing{p}, Ensure: p.Ensure, Provider: "test", Independent: p.Independent}
		if p.Owns != "" {
			inst.Owns = []string{p.Owns}
		}
		if p.Uses != "" {
			inst.Uses = []string{p.Uses}
		}
		if how, path, ok := strings.Cut(p.Claim, ":"); ok {
			inst.Claims = []resources.Claim{{Path: path, Whole: how == "whole", What: how}}
		}
		return inst, nil
	}})
	resources.Register(resources.Type{Name: "other", New: func(spec *resources.Spec) (resources.Instance, error) {
		return resources.Instance{Resource: thing{}}, spec.Decode(&struct{}{})
	}})
}

func mustLoad(t *testing.T, src string) *graph.Graph {
	t.Helper()
	g, err := graph.Load([]string{writeManifest(t, "m.yaml", src)}, graph.Options{})
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	return g
}

// loadErr loads src and returns its error text with the temporary file
// name replaced by "m.yaml".
func loadErr(t *testing.T, src string) string {
	t.Helper()
	f := writeManifest(t, "m.yaml", src)
	_, err := graph.Load([]string{f}, graph.Options{})
	if err == nil {
		t.Fatal("load succeeded, want an error")
	}
	return strings.ReplaceAll(err.Error(), f, "m.yaml")
}

func TestGrammarForms(t *testing.T) {
	g := mustLoad(t, `
data: {x: 1}
hierarchy: {order: [default]}
overrides: {}
ccm:
  pre_message: hello
  resources:
    - thing:
        - defaults: {value: dflt, flag: true}
        - one: {value: mine}
        - two: {}
        - three:
    - thing:
        name: four
        count: 3
    - other:
        - five: {}
`)
	var got []string
	for _, v := range g.Vertices {
		got = append(got, v.ID())
	}
	if strings.Join(got, " ") != "thing#one thing#two thing#three thing#four other#five" {
		t.Fatalf("vertices = %v", got)
	}
	if p := g.Vertices[0].Resource.(thing).p; p.Value != "mine" || !p.Flag {
		t.Fatalf("defaults not merged under the entry's own values: %+v", p)
	}
	if p := g.Vertices[1].Resource.(thing).p; p.Value != "dflt" {
		t.Fatalf("defaults not applied: %+v", p)
	}
	if p := g.Vertices[3].Resource.(thing).p; p.Count != 3 || p.Flag {
		t.Fatalf("single-map form: %+v", p)
	}
	if g.Manifests[0].PreMessage != "hello" {
		t.Fatalf("pre_message = %q", g.Manifests[0].PreMessage)
	}
}

func TestBareListAndMultiLineStrings(t *testing.T) {
	g := mustLoad(t, `
- thing:
    - block:
        value: |
          line one
          line two
    - folded: {value: "a\nb"}
`)
	if v := g.Vertices[0].Resource.(thing).p.Value; v != "line one\nline two\n" {
		t.Fatalf("block scalar = %q", v)
	}
	if v := g.Vertices[1].Resource.(thing).p.Value; v != "a\nb" {
		t.Fatalf("quoted multi-line = %q", v)
	}
}

func TestBadManifestsReportEveryProblemWithItsPosition(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{"syntax", "ccm: [\n", "m.yaml:1:1: invalid YAML: did not find expected node content"},
		{"mapping value where none may be", "- thing:\n    - a: {}\n    - b: value: x\n",
			"m.yaml:3:15: invalid YAML: mapping values are not allowed in this context"},
		{"tab in the indentation", "- thing:\n    - a:\n\t\tvalue: x\n",
			"m.yaml:3:1: invalid YAML: a tab in the indentation; YAML indents with spaces only"},
		{"tab after spaces in the indentation", "ccm:\n  resources:\n    - thing:\n      \t- a: {}\n",
			"m.yaml:4:7: invalid YAML: a tab in the indentation; YAML indents with spaces only"},
		{"error on the first line", "\"", "m.yaml:1:1: invalid YAML: found unexpected end of stream"},
		{"control character", "- thing:\n    - a: {value: \"x\x01\"}\n",
			"m.yaml:2:20: invalid YAML: control characters are not allowed"},
		{"not UTF-8", "- thing:\n    - a: {value: caf\xe9}\n", "m.yaml:2:21: invalid YAML: invalid trailing UTF-8 octet"},
		{"empty", "", "m.yaml: manifest is empty; it needs a ccm: resources: list"},
		{"unknown top-level key", "ccm: {resources: [{thing: [{a: {}}]}]}\nextra: 1\n",
			`m.yaml:2:1: unknown top-level key "extra"; valid keys: ccm, data, hierarchy, overrides`},
		{"unknown ccm key", "ccm:\n  resource: []\n",
			"m.yaml:2:3: unknown ccm key \"resource\"; valid keys: fail_on_error, parallel, post_message, pre_message, resources, resources_jet_file\nm.yaml:2:3: ccm: needs resources (or resources_jet_file)"},
		{"no resources", "ccm:\n  resources: []\n", "m.yaml:2:14: resources: the list is empty"},
		{"unknown type", "- thang:\n    - a: {}\n", `m.yaml:1:3: unknown resource type "thang"; known types: `},
		{"two types in one item", "- thing: []\n  other: []\n",
			"m.yaml:1:3: each resources item is `- TYPE: [ - NAME: {properties} ]`; got a map with 2 keys"},
		{"entry with name in a list", "- thing:\n    - name: a\n      value: b\n",
			"m.yaml:2:7: thing: each entry is `- NAME: {properties}`; got a map with 2 keys; to give a single resource as a map, write `- thing: {name: ..., ...}` without the list"},
		{"unknown property with suggestion", "- thing:\n    - a: {valeu: x}\n",
			`m.yaml:2:11: unknown property "valeu" for thing#a; did you mean "value"?`},
		{"unknown property without suggestion", "- other:\n    - a: {zzz: 1}\n",
			`m.yaml:2:11: unknown property "zzz" for other#a; valid properties: `},
		{"wrong types", "- thing:\n    - a: {flag: yes please, count: many, list: x}\n",
			"m.yaml:2:17: flag: expected true or false, got the string \"yes please\"\nm.yaml:2:36: count: expected an integer, got the string \"many\"\nm.yaml:2:48: list: expected a list, got the string \"x\""},
		{"duplicate property", "- thing:\n    - a:\n        value: x\n        value: y\n",
			`m.yaml:4:9: thing#a: duplicate property "value" (first set at line 3)`},
		{"duplicate resource", "- thing:\n    - a: {}\n    - a: {}\n",
			"m.yaml:3:7: duplicate resource thing#a (first defined at m.yaml:2:7)"},
		{"unknown require", "- thing:\n    - a: {require: [thing#b, nope#c, bad]}\n",
			"m.yaml:2:21: require \"thing#b\": no such resource in the manifest (by name or alias)\nm.yaml:2:30: require \"nope#c\": unknown resource type \"nope\"\nm.yaml:2:38: require \"bad\": expected TYPE#NAME, for example file#/etc/motd"},
		{"self require", "- thing:\n    - a: {require: [thing#a]}\n", "m.yaml:2:21: thing#a cannot require itself"},
		{"subscribe on a type without refresh", "- other:\n    - a: {subscribe: [thing#b]}\n",
			`m.yaml:2:11: unknown property "subscribe" for other#a; valid properties: `},
		{"invalid value from the type", "- thing:\n    - a: {ensure: bad}\n", `m.yaml:2:19: thing#a: ensure "bad" is not valid`},
		{"alias taken", "- thing:\n    - a: {alias: b}\n    - b: {}\n",
			`m.yaml:3:7: duplicate resource thing#b (first defined at m.yaml:2:7)`},
		{"cycle", "- thing:\n    - one: {require: [thing#two]}\n    - two: {require: [thing#one]}\n",
			"m.yaml:2:7: dependency cycle: thing#one -> thing#two -> thing#one"},
		{"property, reference and cycle errors together",
			"- thing:\n    - one: {require: [thing#two], valeu: x}\n    - two: {require: [thing#one, thing#nope]}\n",
			"m.yaml:2:7: dependency cycle: thing#one -> thing#two -> thing#one\n" +
				"m.yaml:2:35: unknown property \"valeu\" for thing#one; did you mean \"value\"?\n" +
				"m.yaml:3:34: require \"thing#nope\": no such resource in the manifest (by name or alias)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := loadErr(t, c.src)
			if !strings.HasPrefix(got, c.want) {
				t.Fatalf("error:\n%s\nwant prefix:\n%s", got, c.want)
			}
		})
	}
}

// explicit returns the edges that are not Order edges.
func explicit(g *graph.Graph) []graph.Edge {
	var out []graph.Edge
	for _, e := range g.Edges {
		if e.Kind != graph.Order {
			out = append(out, e)
		}
	}
	return out
}

func TestRequireByAliasAndLaterResource(t *testing.T) {
	g := mustLoad(t, `
- thing:
    - first: {require: [thing#late]}
    - second: {}
    - later-one: {alias: late}
`)
	if e := explicit(g); len(e) != 1 || e[0] != (graph.Edge{From: 2, To: 0, Kind: graph.Require}) {
		t.Fatalf("edges = %+v", g.Edges)
	}
	if got := g.Order; !slices.Equal(got, []int{2, 0, 1}) {
		t.Fatalf("order = %v, want the required later resource moved just before the first", got)
	}
}

func TestAutomaticEdgesFromPaths(t *testing.T) {
	g := mustLoad(t, `
- thing:
    - file: {uses: /srv/app/conf/app.ini}
    - dir: {owns: /srv/app}
    - conf: {owns: /srv/app/conf, uses: /srv/app/conf}
    - unrelated: {uses: /srv/other}
`)
	want := map[graph.Edge]bool{
		{From: 2, To: 0, Kind: graph.Auto}: true,
		{From: 1, To: 2, Kind: graph.Auto}: true,
	}
	if len(explicit(g)) != len(want) {
		t.Fatalf("edges = %+v", g.Edges)
	}
	for _, e := range explicit(g) {
		if !want[e] {
			t.Fatalf("unexpected edge %+v in %+v", e, g.Edges)
		}
	}
}

func TestSubscribeEdgesAndDOT(t *testing.T) {
	g := mustLoad(t, `
- thing:
    - conf: {}
    - svc: {subscribe: [thing#conf], require: [thing#conf]}
`)
	if len(g.Edges) != 1 || g.Edges[0].Kind != graph.Subscribe || len(g.Subscribers(0)) != 1 {
		t.Fatalf("edges = %+v", g.Edges)
	}
	var b strings.Builder
	if err := g.WriteDOT(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `n0 -> n1 [label="subscribe", color=blue];`) {
		t.Fatalf("DOT:\n%s", b.String())
	}
}

func TestFingerprintChangesWithProperties(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "m.yaml")
	load := func(src string) *graph.Graph {
		if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		g, err := graph.Load([]string{f}, graph.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	a := load("- thing:\n    - x: {value: 1}\n    - y: {}\n")
	b := load("- thing:\n    - y: {}\n    - x: {value: 2}\n")
	if a.Vertices[1].Fingerprint != b.Vertices[0].Fingerprint {
		t.Fatal("an unchanged resource moved in the file must keep its fingerprint")
	}
	if a.Vertices[0].Fingerprint == b.Vertices[1].Fingerprint {
		t.Fatal("a changed property must change the fingerprint")
	}
}

// orderEdges returns the Order edges as "from->to" by name.
func orderEdges(g *graph.Graph) []string {
	var out []string
	for _, e := range g.Edges {
		if e.Kind == graph.Order {
			out = append(out, g.Vertices[e.From].Name+"->"+g.Vertices[e.To].Name)
		}
	}
	slices.Sort(out)
	return out
}

func TestOrderEdgesFollowTheWrittenOrder(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string
	}{
		{"each waits for the one before", `
- thing:
    - a: {}
    - b: {}
    - c: {}
`, []string{"a->b", "b->c"}},
		{"independent neighbours wait for the stage before, not for each other", `
- thing:
    - a: {}
    - f1: {independent: true}
    - f2: {independent: true}
    - b: {}
    - f3: {independent: true}
`, []string{"a->f1", "a->f2", "b->f3", "f1->b", "f2->b"}},
		{"a control keeps a resource out of an independent run", `
- thing:
    - a: {}
    - f1: {independent: true}
    - f2: {independent: true, control: {if: true}}
`, []string{"a->f1", "f1->f2"}},
		{"an explicit edge stands for the order edge", `
- thing:
    - a: {}
    - b: {require: [thing#a]}
`, nil},
		{"a required later resource is ordered where it moved", `
- thing:
    - a: {require: [thing#c]}
    - b: {}
    - c: {}
`, []string{"a->b"}},
		{"parallel: true leaves the order out", `
ccm:
  parallel: true
  resources:
    - thing:
        - a: {}
        - b: {}
`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := orderEdges(mustLoad(t, c.src)); !slices.Equal(got, c.want) {
				t.Fatalf("order edges = %v, want %v", got, c.want)
			}
		})
	}
}

func TestOrderEdgesNeverGate(t *testing.T) {
	g := mustLoad(t, "- thing:\n    - a: {}\n    - b: {}\n")
	if len(g.Parents(1)) != 0 || !slices.Equal(g.After(1), []int{0}) || !slices.Equal(g.Before(0), []int{1}) {
		t.Fatalf("parents %v, after %v, before %v: order edges are apart from the gating ones", g.Parents(1), g.After(1), g.Before(0))
	}
	var b strings.Builder
	if err := g.WriteDOT(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `n0 -> n1 [label="order", style=dashed, color=gray];`) {
		t.Fatalf("DOT:\n%s", b.String())
	}
	if g.OrderEdges() != 1 {
		t.Fatalf("OrderEdges = %d", g.OrderEdges())
	}
}

func TestParallelMustBeABoolean(t *testing.T) {
	got := loadErr(t, "ccm:\n  parallel: yes please\n  resources:\n    - thing:\n        - a: {}\n")
	if want := `m.yaml:2:13: parallel: expected true or false, got the string "yes please"`; got != want {
		t.Fatalf("error = %q, want %q", got, want)
	}
}

func TestPropertiesAsWritten(t *testing.T) {
	g := mustLoad(t, `
- thing:
    - defaults: {value: dflt}
    - one: {ensure: here, count: 2, require: [thing#two]}
    - two: {list: [a, b]}
`)
	got := g.Vertices[0].Properties()
	want := map[string]any{"name": "one", "ensure": "here", "count": 2, "value": "dflt", "require": []any{"thing#two"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("properties = %#v, want %#v", got, want)
	}
	if got := g.Vertices[1].Properties(); !reflect.DeepEqual(got["list"], []any{"a", "b"}) || got["name"] != "two" {
		t.Fatalf("properties = %#v", got)
	}
}

func TestPropertiesAsWrittenWithDefaults(t *testing.T) {
	g := mustLoad(t, `
- thing:
    - defaults: {value: dflt, count: 3, list: [d]}
    - one: {value: mine}
    - two:
    - three: {list: [own], flag: true}
`)
	want := []map[string]any{
		{"name": "one", "value": "mine", "count": 3, "list": []any{"d"}},
		{"name": "two", "value": "dflt", "count": 3, "list": []any{"d"}},
		{"name": "three", "value": "dflt", "count": 3, "list": []any{"own"}, "flag": true},
	}
	for i, w := range want {
		got := g.Vertices[i].Properties()
		if !reflect.DeepEqual(got, w) {
			t.Errorf("%s: properties = %#v, want %#v", g.Vertices[i].Name, got, w)
		}
		// A report changes its copy, not the shared defaults.
		got["list"].([]any)[0] = "changed"
	}
	if got := g.Vertices[1].Properties()["list"]; !reflect.DeepEqual(got, []any{"d"}) {
		t.Fatalf("defaults after reports changed their copies: %#v", got)
	}
}
