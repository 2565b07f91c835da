package graph_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestMergeKeys loads manifests that share properties through YAML merge
// keys, as upstream's YAML library accepts them.
func TestMergeKeys(t *testing.T) {
	g := mustLoad(t, `
data:
  base: &base {value: shared, flag: true}
  more: &more {count: 2, value: more}
ccm:
  resources:
    - thing:
        - one:
            <<: *base
            value: mine
            require: [thing#two]
        - two: {<<: [*base, *more]}
        - three:
            <<: *base
            list: [a]
`)
	for i, want := range []struct {
		value string
		flag  bool
		count int
	}{{"mine", true, 0}, {"more", true, 2}, {"shared", true, 0}} {
		p := g.Vertices[i].Resource.(thing).p
		if p.Value != want.value || p.Flag != want.flag || p.Count != want.count {
			t.Fatalf("%s: %+v, want %+v", g.Vertices[i].ID(), p, want)
		}
	}
	if len(explicit(g)) != 1 {
		t.Fatalf("the require beside a merge key was lost: %v", explicit(g))
	}
}

func TestMergeKeyErrors(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"merging a scalar", "- thing:\n    - a: {<<: 5}\n", `m.yaml:2:11: <<: a merge key takes a map or a list of maps, got "5"`},
		{"a merged property is checked where it is written",
			"data: {d: &d {valeu: x}}\nccm:\n  resources:\n    - thing:\n        - a: {<<: *d}\n",
			`m.yaml:1:15: unknown property "valeu" for thing#a; did you mean "value"?`},
		{"the alias budget holds through merges", mergeBomb(), "aliases expand the document too far"},
		{"a duplicate beside a merge", "- thing:\n    - a: {value: x, <<: {flag: true}, value: y}\n",
			`m.yaml:2:39: thing#a: duplicate property "value"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := loadErr(t, tc.src); !strings.HasPrefix(got, tc.want) && !strings.Contains(got, tc.want) {
				t.Fatalf("error:\n%s\nwant prefix:\n%s", got, tc.want)
			}
		})
	}
}

// mergeBomb is an alias bomb of nine levels of ten, each level a map
// merging ten maps of the level before.
func mergeBomb() string {
	var b strings.Builder
	b.WriteString("data:\n  l0: &l0 {a: [x, x, x, x, x, x, x, x, x, x]}\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&b, "  l%d: &l%d {<<: [%s], k%d: [%s]}\n", i, i,
			strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d, ", i-1), 10), ", "), i,
			strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d, ", i-1), 10), ", "))
	}
	b.WriteString("ccm:\n  resources:\n    - thing:\n        - a: {<<: *l9}\n")
	return b.String()
}
