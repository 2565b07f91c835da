package graph_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestBlockEntries: what each entry of a block is built from: its own
// properties over the block's defaults.
func TestBlockEntries(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		// want lists each vertex as NAME=VALUE/COUNT.
		want string
	}{
		{"defaults fill what an entry does not set", "- thing:\n    - defaults: {value: d, count: 1}\n    - a: {value: own}\n    - b:\n",
			"a=own/1 b=d/1"},
		{"defaults anywhere in the block", "- thing:\n    - a: {}\n    - defaults: {count: 2}\n", "a=/2"},
		{"empty defaults", "- thing:\n    - defaults:\n    - a: {value: x}\n", "a=x/0"},
		{"defaults are the block's only", "- thing:\n    - defaults: {value: d}\n    - a: {}\n- thing:\n    - b: {}\n", "a=d/0 b=/0"},
		{"a single map", "- thing: {name: a, value: v, count: 3}\n", "a=v/3"},
		{"both forms, in order", "- thing: {name: b}\n- thing:\n    - a: {}\n", "b=/0 a=/0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, v := range mustLoad(t, tc.src).Vertices {
				p := v.Properties()
				value, _ := p["value"].(string)
				count, _ := p["count"].(int)
				got = append(got, fmt.Sprintf("%s=%s/%d", v.Name, value, count))
			}
			if strings.Join(got, " ") != tc.want {
				t.Fatalf("vertices %q, want %q", strings.Join(got, " "), tc.want)
			}
		})
	}
}

func TestBlockEntryErrors(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"two defaults", "- thing:\n    - defaults: {value: x}\n    - defaults: {value: y}\n    - a: {}\n",
			"m.yaml:3:7: thing: only one defaults entry is allowed per block (first at line 2)"},
		{"a single map without a name", "- thing: {value: v}\n", "m.yaml:1:10: thing: a resource given as a map needs a name: key"},
		{"a single map naming twice", "- thing: {name: a, name: b}\n", `m.yaml:1:20: thing: duplicate property "name" (first set at line 1)`},
		{"an empty name", "- thing:\n    - \"\": {}\n", "m.yaml:2:7: thing: the name is empty"},
		{"a null name in a single map", "- thing: {name: ~}\n", "m.yaml:1:17: thing: name: expected a string, got nothing"},
		{"defaults that are a list", "- thing:\n    - defaults: [a]\n    - a: {}\n", "m.yaml:2:17: thing#defaults: properties must be a map (use {} for none), got a list"},
		{"an entry that is a string", "- thing:\n    - a\n", "m.yaml:2:7: thing: each entry is `- NAME: {properties}`; got the string \"a\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := loadErr(t, tc.src); got != tc.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}
