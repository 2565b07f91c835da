package yamlmerge

import (
	"fmt"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"github.com/reactive-ccm/ccm/resources/yamlnode"
	"go.yaml.in/yaml/v3"
)

// content prints x's pairs as key=value in order, values as yaml.v3
// decodes them; merges left in place would show as "<<=".
func content(t *testing.T, doc *yaml.Node, key string) string {
	t.Helper()
	root := doc.Content[0]
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value != key {
			continue
		}
		m := yamlnode.Deref(root.Content[i+1])
		var parts []string
		for j := 0; j+1 < len(m.Content); j += 2 {
			var v any
			if err := m.Content[j+1].Decode(&v); err != nil {
				t.Fatal(err)
			}
			parts = append(parts, fmt.Sprintf("%s=%v", m.Content[j].Value, v))
		}
		return strings.Join(parts, " ")
	}
	t.Fatalf("no key %q", key)
	return ""
}

// TestExpand holds the results upstream's library (goccy/go-yaml v1.19.2)
// gives for the same documents.
func TestExpand(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"merge then override", "d: &d {a: 1, b: 2}\nx:\n  <<: *d\n  b: 3\n", "a=1 b=3"},
		{"a later merge overrides what came before", "d: &d {a: 1, b: 2}\nx:\n  b: 3\n  <<: *d\n", "b=2 a=1"},
		{"a list of maps: the last wins", "d: &d {a: 1}\ne: &e {a: 2, c: 3}\nx:\n  <<: [*d, *e]\n", "a=2 c=3"},
		{"an inline map", "x:\n  <<: {a: 1}\n  c: 2\n", "a=1 c=2"},
		{"no deep merge", "d: &d {a: {p: 1}}\nx:\n  <<: *d\n  a: {q: 2}\n", "a=map[q:2]"},
		{"a merged map's own merges", "d: &d {a: 1, <<: {z: 9}}\nx:\n  <<: *d\n", "a=1 z=9"},
		{"an explicit merge tag", "x:\n  !!merge <<: {a: 1}\n", "a=1"},
		{"a quoted key is a key", "x:\n  \"<<\": {a: 1}\n", "<<=map[a:1]"},
		{"a duplicate stays for the walker", "x:\n  a: 1\n  a: 2\n", "a=1 a=2"},
		{"a duplicate around a merge stays", "d: &d {a: 9}\nx:\n  a: 1\n  <<: *d\n  a: 2\n", "a=9 a=2"},
		{"nested in a list", "d: &d {a: 1}\nx:\n  l: [{<<: *d, b: 2}]\n", "l=[map[a:1 b:2]]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := resourcetest.YAMLDoc(t, tc.src)
			if err := Expand("m.yaml", doc); err != nil {
				t.Fatal(err)
			}
			if got := content(t, doc, "x"); got != tc.want {
				t.Fatalf("x is %q, want %q", got, tc.want)
			}
		})
	}
}

func TestExpandErrors(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"a list of something else", "d: &d [1]\nx:\n  <<: *d\n", `m.yaml:1:8: <<: a merge key takes a map or a list of maps; item 1 is "1"`},
		{"a scalar", "x:\n  <<: 5\n", `m.yaml:2:3: <<: a merge key takes a map or a list of maps, got "5"`},
		{"a scalar in the list", "d: &d {a: 1}\nx:\n  <<: [*d, 5]\n", `m.yaml:3:12: <<: a merge key takes a map or a list of maps; item 2 is "5"`},
		{"two merge keys", "d: &d {a: 1}\nx:\n  <<: *d\n  <<: {b: 2}\n", "m.yaml:4:3: <<: a second merge key in one map (the first is at line 3)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Expand("m.yaml", resourcetest.YAMLDoc(t, tc.src))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// TestExpandOnce expands a map many aliases merge once: 10,000 resources
// sharing their defaults cost their own pairs, not a walk of the
// defaults each, and only the anchored map is remembered.
func TestExpandOnce(t *testing.T) {
	var b strings.Builder
	b.WriteString("d: &d {owner: root, <<: {group: root}}\nx: {k: v}\nfiles:\n")
	for i := range 10000 {
		fmt.Fprintf(&b, "  - {<<: *d, name: /srv/f%d}\n", i)
	}
	doc := resourcetest.YAMLDoc(t, b.String())
	x := expander{file: "m.yaml", done: map[*yaml.Node]bool{}}
	x.node(doc)
	if err := x.errs.Err(); err != nil {
		t.Fatal(err)
	}
	files := doc.Content[0].Content[5]
	for _, f := range files.Content {
		if len(f.Content) != 6 || f.Content[0].Value != "owner" || f.Content[2].Value != "group" {
			t.Fatalf("a file's map is %d nodes, first key %q", len(f.Content), f.Content[0].Value)
		}
	}
	// Only the anchored map is remembered, however many merge it.
	if len(x.done) != 1 {
		t.Fatalf("%d nodes remembered, want 1", len(x.done))
	}
}

// TestExpandRefusesAnAliasBombFirst: a document whose aliases expand too
// far is refused before any merge key is resolved.
func TestExpandRefusesAnAliasBombFirst(t *testing.T) {
	src := "l0: &l0 {a: 1}\n"
	for i := 1; i <= 7; i++ {
		src += fmt.Sprintf("l%d: &l%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d, ", i-1), 10), ", "))
	}
	doc := resourcetest.YAMLDoc(t, src+"x: {<<: *l0, b: 2}\n")
	if err := Expand("m.yaml", doc); err == nil || !strings.Contains(err.Error(), "alias bomb") {
		t.Fatalf("Expand = %v, want the alias budget's error", err)
	}
	if got := content(t, doc, "x"); !strings.Contains(got, "<<=") {
		t.Fatalf("x = %s: a merge was resolved in a refused document", got)
	}
}
