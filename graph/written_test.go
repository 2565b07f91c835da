package graph_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/graph"
)

// runOrder names the vertices in the order they run.
func runOrder(g *graph.Graph) string {
	var out []string
	for _, v := range g.Order {
		out = append(out, g.Vertices[v].Name)
	}
	return strings.Join(out, " ")
}

// TestRunOrder: manifest order, except that what a resource requires and
// is written later moves just before it, with what that requires, and no
// further.
func TestRunOrder(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"as written", "- thing:\n    - a: {}\n    - b: {}\n    - c: {}\n", "a b c"},
		{"a later requirement moves before its first user",
			"- thing:\n    - a: {}\n    - b: {require: [thing#d]}\n    - c: {}\n    - d: {}\n", "a d b c"},
		{"a chain of later requirements moves together",
			"- thing:\n    - a: {require: [thing#c]}\n    - b: {}\n    - c: {require: [thing#d]}\n    - d: {}\n", "d c a b"},
		{"several later requirements, in manifest order",
			"- thing:\n    - a: {subscribe: [thing#d, thing#c]}\n    - b: {}\n    - c: {}\n    - d: {}\n", "c d a b"},
		{"an earlier requirement stays where it is",
			"- thing:\n    - a: {}\n    - b: {}\n    - c: {require: [thing#a]}\n", "a b c"},
		{"a path owner written later moves before the path's user",
			"- thing:\n    - f: {uses: /srv/x/f}\n    - g: {}\n    - dir: {owns: /srv/x}\n", "dir f g"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := runOrder(mustLoad(t, tc.src)); got != tc.want {
				t.Fatalf("order %q, want %q", got, tc.want)
			}
		})
	}
}

// TestFailOnErrorRunsOneAtATime: under fail_on_error independent
// neighbours are no longer run together: a failure must stop what is
// written after it.
func TestFailOnErrorRunsOneAtATime(t *testing.T) {
	src := "ccm:\n  fail_on_error: FAIL\n  resources:\n    - thing:\n        - a: {}\n        - f1: {independent: true}\n        - f2: {independent: true}\n"
	for fail, want := range map[string][]string{
		"false": {"a->f1", "a->f2"},
		"true":  {"a->f1", "f1->f2"},
	} {
		g := mustLoad(t, strings.Replace(src, "FAIL", fail, 1))
		if got := orderEdges(g); !slices.Equal(got, want) || g.FailOnError() != (fail == "true") {
			t.Errorf("fail_on_error %s: order edges %v, want %v", fail, got, want)
		}
	}
}
