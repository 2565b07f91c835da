package graph_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/graph"
)

// TestCyclesAreReportedAsPaths: every cycle is reported, each once, as
// the shortest path from its first-written resource back to it, at that
// resource's position, whatever edge kinds close it.
func TestCyclesAreReportedAsPaths(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"two resources", "- thing:\n    - a: {require: [thing#b]}\n    - b: {require: [thing#a]}\n",
			"m.yaml:2:7: dependency cycle: thing#a -> thing#b -> thing#a"},
		{"the shortest of two loops through the first resource",
			"- thing:\n    - a: {require: [thing#d]}\n    - b: {require: [thing#a]}\n    - c: {require: [thing#b]}\n    - d: {require: [thing#c, thing#b]}\n",
			"m.yaml:2:7: dependency cycle: thing#a -> thing#b -> thing#d -> thing#a"},
		{"two separate cycles, both", "- thing:\n    - a: {require: [thing#b]}\n    - b: {require: [thing#a]}\n    - c: {subscribe: [thing#d]}\n    - d: {subscribe: [thing#c]}\n",
			"m.yaml:2:7: dependency cycle: thing#a -> thing#b -> thing#a\nm.yaml:4:7: dependency cycle: thing#c -> thing#d -> thing#c"},
		{"closed by a path edge", "- thing:\n    - dir: {owns: /srv/app, require: [thing#file]}\n    - file: {uses: /srv/app/x}\n",
			"m.yaml:2:7: dependency cycle: thing#dir -> thing#file -> thing#dir"},
		{"an alias is reported by the resource's name", "- thing:\n    - a: {alias: first, require: [thing#b]}\n    - b: {require: [thing#first]}\n",
			"m.yaml:2:7: dependency cycle: thing#a -> thing#b -> thing#a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := loadErr(t, tc.src); got != tc.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// TestEdgesIndex: Parents, Children and Subscribers agree with the edges,
// order edges apart; Order runs every vertex once, each after its parents.
func TestEdgesIndex(t *testing.T) {
	g := mustLoad(t, `
- thing:
    - conf: {}
    - pkg: {}
    - svc: {subscribe: [thing#conf], require: [thing#pkg]}
    - check: {require: [thing#svc, thing#conf]}
`)
	for _, tc := range []struct {
		v                       int
		parents, children, subs []int
	}{
		{0, nil, []int{2, 3}, []int{2}},
		{1, nil, []int{2}, nil},
		{2, []int{0, 1}, []int{3}, nil},
		{3, []int{0, 2}, nil, nil},
	} {
		sorted := func(s []int) []int { s = slices.Clone(s); slices.Sort(s); return s }
		if !slices.Equal(sorted(g.Parents(tc.v)), tc.parents) || !slices.Equal(sorted(g.Children(tc.v)), tc.children) ||
			!slices.Equal(g.Subscribers(tc.v), tc.subs) {
			t.Errorf("%s: parents %v children %v subscribers %v; want %v %v %v", g.Vertices[tc.v].ID(),
				g.Parents(tc.v), g.Children(tc.v), g.Subscribers(tc.v), tc.parents, tc.children, tc.subs)
		}
	}
	at := make(map[int]int)
	for i, v := range g.Order {
		at[v] = i
	}
	if len(at) != len(g.Vertices) {
		t.Fatalf("order %v does not hold every vertex once", g.Order)
	}
	for _, e := range g.Edges {
		if at[e.From] > at[e.To] {
			t.Errorf("order %v runs %d before its parent %d", g.Order, e.To, e.From)
		}
	}
	if want := "require subscribe auto order"; strings.Join([]string{graph.Require.String(), graph.Subscribe.String(), graph.Auto.String(), graph.Order.String()}, " ") != want {
		t.Errorf("edge kinds are not named %s", want)
	}
}
