package yamlbudget

import (
	"fmt"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest"
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
