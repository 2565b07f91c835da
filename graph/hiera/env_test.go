package hiera_test

import (
	"slices"
	"testing"

	"github.com/reactive-ccm/ccm/graph/hiera"
)

func TestEnv(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    any
		want []string
	}{
		{"a map, sorted, keys upper-cased", map[string]any{"port": 80, "name": "web", "on": true, "ratio": 0.5},
			[]string{"X_NAME=web", "X_ON=true", "X_PORT=80", "X_RATIO=0.5"}},
		{"nested values as JSON", map[string]any{"list": []any{"a", 1}, "map": map[string]any{"k": "v"}, "none": nil},
			[]string{`X_LIST=["a",1]`, `X_MAP={"k":"v"}`, "X_NONE=null"}},
		{"a value that is not a map", "plain", []string{"X_VALUE=plain"}},
		{"a list", []any{1, 2}, []string{"X_VALUE=[1,2]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := hiera.Env(tc.v, "X")
			if err != nil || !slices.Equal(got, tc.want) {
				t.Errorf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
	if _, err := hiera.Env(map[string]any{"f": func() {}}, "X"); err == nil {
		t.Error("a value JSON cannot hold gave no error")
	}
}
