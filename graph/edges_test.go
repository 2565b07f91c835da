package graph_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/graph"
)

// edgeNames lists the graph's edges other than Order edges as
// "parent->child kind", sorted.
func edgeNames(g *graph.Graph) string {
	var out []string
	for _, e := range explicit(g) {
		out = append(out, g.Vertices[e.From].Name+"->"+g.Vertices[e.To].Name+" "+e.Kind.String())
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}

// TestEdgeDecisions: which edge, if any, joins two resources, for each
// way a manifest can relate them; one edge per pair, the strongest kind.
func TestEdgeDecisions(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"require by name", "- thing:\n    - a: {}\n    - b: {require: [thing#a]}\n", "a->b require"},
		{"require by alias", "- thing:\n    - a: {alias: first}\n    - b: {require: [thing#first]}\n", "a->b require"},
		{"a reference to another type's resource", "- other:\n    - a: {}\n- thing:\n    - b: {require: [other#a]}\n", "a->b require"},
		{"require twice is one edge", "- thing:\n    - a: {}\n    - b: {require: [thing#a, thing#a]}\n", "a->b require"},
		{"by name and by alias is one edge", "- thing:\n    - a: {alias: x}\n    - b: {require: [thing#a, thing#x]}\n", "a->b require"},
		{"subscribe beats require", "- thing:\n    - a: {}\n    - b: {require: [thing#a], subscribe: [thing#a]}\n", "a->b subscribe"},
		{"subscribe beats a path edge", "- thing:\n    - a: {owns: /srv}\n    - b: {uses: /srv/x, subscribe: [thing#a]}\n", "a->b subscribe"},
		{"require keeps its kind over a path edge", "- thing:\n    - a: {owns: /srv}\n    - b: {uses: /srv/x, require: [thing#a]}\n", "a->b require"},
		{"the nearest owner of an ancestor", "- thing:\n    - top: {owns: /srv}\n    - app: {owns: /srv/app}\n    - conf: {uses: /srv/app/conf/x.ini}\n",
			"app->conf auto"},
		{"a path is owned by the first to claim it", "- thing:\n    - a: {owns: /srv}\n    - b: {owns: /srv}\n    - c: {uses: /srv/x}\n", "a->c auto"},
		{"an owner written later still goes first", "- thing:\n    - c: {uses: /srv/x/y}\n    - a: {owns: /srv/x}\n", "a->c auto"},
		{"a resource inside its own path", "- thing:\n    - a: {owns: /srv, uses: /srv/x}\n", ""},
		{"an unclean path is cleaned", "- thing:\n    - a: {owns: /srv/app}\n    - b: {uses: /srv/./app/../app/x}\n", "a->b auto"},
		{"a relative path is matched as written", "- thing:\n    - a: {owns: data}\n    - b: {uses: data/x}\n    - c: {uses: other}\n", "a->b auto"},
		{"a sibling is no parent", "- thing:\n    - a: {owns: /srv/app}\n    - b: {uses: /srv/application}\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := edgeNames(mustLoad(t, tc.src)); got != tc.want {
				t.Fatalf("edges %q, want %q", got, tc.want)
			}
		})
	}
}

// TestReferenceErrors: what a reference cannot resolve to is reported at
// the reference.
func TestReferenceErrors(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"subscribe to itself", "- thing:\n    - a: {subscribe: [thing#a]}\n", "m.yaml:2:23: thing#a cannot subscribe itself"},
		{"require itself by alias", "- thing:\n    - a: {alias: me, require: [thing#me]}\n", "m.yaml:2:32: thing#a cannot require itself"},
		{"an alias two resources take", "- thing:\n    - a: {alias: x}\n    - b: {alias: x}\n", `m.yaml:3:7: alias "x" of thing#b is already used by thing#a`},
		{"an alias is per type", "- thing:\n    - a: {alias: x}\n- other:\n    - b: {alias: x}\n- thing:\n    - c: {require: [other#a]}\n",
			`m.yaml:6:21: require "other#a": no such resource in the manifest (by name or alias)`},
		{"a reference without a name", "- thing:\n    - a: {require: [\"thing#\"]}\n", `require "thing#": expected TYPE#NAME`},
		{"a reference without a type", "- thing:\n    - a: {subscribe: [\"#a\"]}\n", `subscribe "#a": expected TYPE#NAME`},
		{"an empty alias is no alias", "- thing:\n    - a: {alias: \"\"}\n    - b: {require: [\"thing#\"]}\n", `require "thing#": expected TYPE#NAME`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := loadErr(t, tc.src); !strings.Contains(got, tc.want) {
				t.Fatalf("error\n%s\nwant it to contain\n%s", got, tc.want)
			}
		})
	}
}

// TestExternalReferences: a reference no manifest resource answers goes
// to Options.External, once per resource outside, known afterwards by
// its name and alias alike.
func TestExternalReferences(t *testing.T) {
	asked := map[string]int{}
	opts := graph.Options{External: func(ref string) (graph.External, error) {
		asked[ref]++
		return graph.External{Type: "thing", Name: "db", Alias: "database", Resource: thing{}}, nil
	}}
	src := "- thing:\n    - a: {require: [thing#db]}\n    - b: {subscribe: [thing#database, thing#a]}\n    - c: {require: [thing#db]}\n"
	g, err := graph.Load([]string{writeManifest(t, "m.yaml", src)}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := edgeNames(g), "a->b subscribe, db->a require, db->b subscribe, db->c require"; got != want {
		t.Fatalf("edges %q, want %q", got, want)
	}
	if len(g.Vertices) != 4 || !g.Vertices[3].External || asked["thing#db"] != 1 || len(asked) != 1 {
		t.Fatalf("vertices %d, asked %v", len(g.Vertices), asked)
	}
}
