package graph_test

import (
	"reflect"
	"testing"

	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// asWrittenCases are properties of every shape YAML gives, each decoded
// by yaml as Properties once did (the mapping node decoded whole).
const asWrittenCases = `
- {content: "text", owner: root, mode: "0644", empty: "", quoted: 'x'}
- {n: 12, octal: 0644, o: 0o644, hex: 0x1F, big: 18446744073709551615, neg: -3, f: 1.5, inf: .inf}
- {t: true, f: false, yes: yes, on: on, tilde: ~, null: null, none: }
- {date: 2001-12-14, stamp: 2001-12-14t21:59:43.10-05:00, bin: !!binary aGVsbG8=, tagged: !!str 123, int: !!int "12"}
- {list: [a, 1, {k: v}, [b]], map: {a: {b: [1, 2]}, c: null}, int_keys: {1: a, 2: b}, bool_key: {true: x}}
- &base {owner: root, mode: "0755"}
- {<<: *base, content: merged}
- {alias: *base, twice: *base}
- {"quoted key": 1, "123": two}
`

func TestPropertiesAsWrittenAreWhatYAMLDecodes(t *testing.T) {
	for i, n := range resourcetest.YAMLNode(t, asWrittenCases).Content {
		want := map[string]any{}
		if err := n.Decode(&want); err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if got := graph.KeptProperties(n)(); !reflect.DeepEqual(got, want) {
			t.Errorf("case %d:\n got  %#v\n want %#v", i, got, want)
		}
	}
}

func TestPropertiesAsWrittenAreCopiedEachTime(t *testing.T) {
	kept := graph.KeptProperties(resourcetest.YAMLNode(t, `{map: {a: x}, list: [y], keys: {1: z}}`))
	first := kept()
	// Redacting a report changes its maps and lists in place.
	first["map"].(map[string]any)["a"] = "redacted"
	first["list"].([]any)[0] = "redacted"
	first["keys"].(map[any]any)[1] = "redacted"
	want := map[string]any{"map": map[string]any{"a": "x"}, "list": []any{"y"}, "keys": map[any]any{1: "z"}}
	if again := kept(); !reflect.DeepEqual(again, want) {
		t.Fatalf("after a report changed its copy: %#v, want %#v", again, want)
	}
}
