package yamlbudget

import (
	"fmt"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"go.yaml.in/yaml/v3"
)

// bomb is the classic: levels of ten aliases each to the level before.
func bomb(levels int) string {
	var b strings.Builder
	b.WriteString("l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i <= levels; i++ {
		fmt.Fprintf(&b, "l%d: &l%d [", i, i)
		for j := range 10 {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*l%d", i-1)
		}
		b.WriteString("]\n")
	}
	return b.String()
}

func TestCheck(t *testing.T) {
	var shared strings.Builder
	shared.WriteString("defaults: &d {owner: root, group: root, mode: \"0644\", ensure: present}\nfiles:\n")
	for i := range 10000 {
		fmt.Fprintf(&shared, "  - {<<: *d, name: /srv/f%d}\n", i)
	}
	for _, tc := range []struct {
		name, src string
		// at is the position of the refusal, "" for none.
		at string
	}{
		{"no aliases", "a: [1, 2, 3]\n", ""},
		{"10,000 resources sharing an anchor", shared.String(), ""},
		{"a bomb of 4 levels (100,000 nodes)", bomb(4), ""},
		{"a bomb of 9 levels", bomb(9), "m.yaml:6:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Check("m.yaml", resourcetest.YAMLDoc(t, tc.src))
			if tc.at == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), tc.at) || !strings.Contains(err.Error(), "aliases expand the document too far") {
				t.Fatalf("error %v, want a refusal at %s", err, tc.at)
			}
		})
	}
}

// TestCheckAtTheBudget: aliases adding exactly MaxExpansion nodes are
// accepted; one node more is refused at the alias that went over.
func TestCheckAtTheBudget(t *testing.T) {
	// An anchored list of 999 scalars is 1,000 nodes; each alias to it
	// adds that many.
	list := "a: &a [" + strings.TrimSuffix(strings.Repeat("x, ", 999), ", ") + "]\n"
	aliases := func(n int) string {
		return "b: [" + strings.TrimSuffix(strings.Repeat("*a, ", n), ", ") + "]\n"
	}
	if err := Check("m.yaml", resourcetest.YAMLDoc(t, list+aliases(MaxExpansion/1000))); err != nil {
		t.Fatalf("aliases adding exactly %d nodes: %v", MaxExpansion, err)
	}
	over := list + aliases(MaxExpansion/1000) + "c: *a\n"
	if err := Check("m.yaml", resourcetest.YAMLDoc(t, over)); err == nil || !strings.HasPrefix(err.Error(), "m.yaml:3:4: ") {
		t.Fatalf("one alias more: %v; want a refusal at that alias, m.yaml:3:4", err)
	}
}

// TestCheckRefusesANodeThatContainsItself: the parser never makes one,
// but the check ends on it rather than recursing forever.
func TestCheckRefusesANodeThatContainsItself(t *testing.T) {
	loop := &yaml.Node{Kind: yaml.SequenceNode, Anchor: "l", Line: 2, Column: 5}
	loop.Content = []*yaml.Node{{Kind: yaml.AliasNode, Alias: loop, Line: 2, Column: 6}}
	doc := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{loop}}
	if err := Check("m.yaml", doc); err == nil || !strings.HasPrefix(err.Error(), "m.yaml:2:5: ") {
		t.Fatalf("Check = %v; want a refusal at the node, m.yaml:2:5", err)
	}
}
