package tree_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/reactive-ccm/ccm/internal/tree"
)

func TestDecodeJSON(t *testing.T) {
	for src, want := range map[string]any{
		`{"a": 1, "b": [2, 2.5, "x"], "c": {"d": -3}}`: map[string]any{"a": 1, "b": []any{2, 2.5, "x"}, "c": map[string]any{"d": -3}},
		`7`:                    7,
		`18446744073709551615`: 1.8446744073709552e19,
		`[true, null]`:         []any{true, nil},
	} {
		got, err := tree.DecodeJSON([]byte(src))
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("DecodeJSON(%s) = %#v, %v; want %#v", src, got, err, want)
		}
	}
}

func TestDecodeJSONRefusesWhatIsNotOneValue(t *testing.T) {
	for _, src := range []string{``, `{"a": 1} {"b": 2}`, `[1,`} {
		if got, err := tree.DecodeJSON([]byte(src)); err == nil {
			t.Errorf("DecodeJSON(%q) = %#v, want an error", src, got)
		}
	}
}

func TestMapLeavesReplacesEveryLeafInPlace(t *testing.T) {
	list := []any{"a", 1}
	v := map[string]any{"s": "b", "l": list, "m": map[string]any{"t": "c"}}
	bang := func(x any) any {
		if s, ok := x.(string); ok {
			return s + "!"
		}
		return x
	}
	got := tree.MapLeaves(v, bang)
	want := map[string]any{"s": "b!", "l": []any{"a!", 1}, "m": map[string]any{"t": "c!"}}
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(v, want) || list[0] != "a!" {
		t.Fatalf("MapLeaves = %#v (input now %#v), want %#v in place", got, v, want)
	}
	if got := tree.MapLeaves("x", bang); got != "x!" {
		t.Fatalf("MapLeaves of a leaf = %#v, want x!", got)
	}
}

func ExampleDecodeJSON() {
	v, err := tree.DecodeJSON([]byte(`{"port": 8080, "ratio": 0.5}`))
	fmt.Printf("%#v %v\n", v.(map[string]any)["port"], err)
	// Output: 8080 <nil>
}
