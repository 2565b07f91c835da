package template

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestAFunctionIsNoValue: an expression that names a function without
// calling it, or builds a list or map holding one, is an error saying
// so, in every way a template is resolved; the YAML encoder would panic
// on it and ccm with it.
func TestAFunctionIsNoValue(t *testing.T) {
	tm := New(Env{Facts: map[string]any{"os": "linux"}})
	for _, tc := range []struct {
		name string
		eval func(string) (any, error)
		src  string
	}{
		{"a value", tm.Value, "{{ lookup }}"},
		{"a value, the other delimiters", tm.Value, "${ toJSON }"},
		{"a list holding one", tm.Value, "{{ [1, lookup] }}"},
		{"a map holding one", tm.Value, "{{ {'a': [lookup]} }}"},
		{"text around it", func(s string) (any, error) { return tm.String(s) }, "os-{{ lookup }}"},
		{"a control expression", tm.Eval, "lookup"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := tc.eval(tc.src)
			if !errors.Is(err, ErrFunctionValue) || !strings.Contains(err.Error(), "call it, with its arguments in brackets") {
				t.Fatalf("%s = %v, %v; want ErrFunctionValue", tc.src, v, err)
			}
		})
	}
	for src, want := range map[string]any{"{{ lookup('facts.os') }}": "linux", "{{ len([1, 2]) }}": 2, "{{ nil }}": nil} {
		if v, err := tm.Value(src); err != nil || v != want {
			t.Errorf("%s = %v, %v; want %v", src, v, err, want)
		}
	}
}

func TestHoldsFunc(t *testing.T) {
	fn := func() {}
	var nilFn func()
	var nilPtr *int
	tests := []struct {
		name string
		v    any
		want bool
	}{
		{"a function", fn, true},
		{"a nil function is still one", nilFn, true},
		{"a pointer to one", &fn, true},
		{"a nil pointer", nilPtr, false},
		{"an array holding one", [2]any{1, fn}, true},
		{"a map of values", map[string]any{"a": []any{1, "x"}}, false},
		{"a map holding one deep", map[string]any{"a": []any{map[string]any{"f": fn}}}, true},
		{"nothing", nil, false},
	}
	for _, tt := range tests {
		if got := holdsFunc(reflect.ValueOf(tt.v)); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
