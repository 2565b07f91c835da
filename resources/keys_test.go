package resources_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"go.yaml.in/yaml/v3"
)

// mappingOf parses a mapping of the keys given, one per line.
func mappingOf(t *testing.T, keys []string) *yaml.Node {
	t.Helper()
	var src strings.Builder
	for i, k := range keys {
		fmt.Fprintf(&src, "%s: %d\n", k, i)
	}
	return resourcetest.YAMLNode(t, src.String())
}

func TestKeys(t *testing.T) {
	many := make([]string, 40)
	for i := range many {
		many[i] = fmt.Sprintf("k%d", i)
	}
	tests := []struct {
		name string
		keys []string
		// repeats maps the index of each repeated key to the line of its
		// first occurrence.
		repeats map[int]int
	}{
		{"a small mapping without repeats", []string{"a", "b", "c"}, nil},
		{"a small mapping repeating a key twice", []string{"a", "b", "a", "a"}, map[int]int{2: 1, 3: 1}},
		{"a large mapping without repeats", many, nil},
		{"a large mapping repeating its first and last keys", append(append([]string(nil), many...), "k0", "k39", "k0"),
			map[int]int{40: 1, 41: 40, 42: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := mappingOf(t, tt.keys)
			keys := resources.KeysOf(m)
			for i := range tt.keys {
				first, dup := keys.Earlier(2 * i)
				line, want := tt.repeats[i]
				if dup != want || (dup && first.Line != line) {
					t.Errorf("key %d (%s): repeat %v of line %v, want %v of line %d", i, tt.keys[i], dup, first, want, line)
				}
			}
		})
	}
}
