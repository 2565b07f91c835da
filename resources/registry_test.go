package resources_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

func TestRegisterTwicePanics(t *testing.T) {
	defer func() {
		if r := recover(); fmt.Sprint(r) != `resources: type "greeting" registered twice` {
			t.Fatalf("recovered %v", r)
		}
	}()
	resources.Register(resources.Type{Name: "greeting"})
}

func TestTypeNames(t *testing.T) {
	names := resources.TypeNames()
	if !slices.IsSorted(names) {
		t.Fatalf("not sorted: %v", names)
	}
	for _, n := range []string{"edge", "greeting", "probe"} {
		if !slices.Contains(names, n) {
			t.Errorf("%q registered by this package's tests is missing from %v", n, names)
		}
	}
	if _, ok := resources.Lookup("nothing"); ok {
		t.Error("Lookup found a type never registered")
	}
}

// TestBuild: Build hands New a spec that remembers what templates
// resolved, and leaves those values out of New's errors whatever their
// shape, so a secret in data never reaches a log.
func TestBuild(t *testing.T) {
	fail := func(err error) resources.Type {
		return resources.Type{Name: "t", New: func(spec *resources.Spec) (resources.Instance, error) {
			if spec.Templated == nil {
				return resources.Instance{}, fmt.Errorf("no Templated")
			}
			var p struct {
				Owner string `yaml:"owner"`
			}
			if err := spec.Decode(&p); err != nil {
				return resources.Instance{}, err
			}
			return resources.Instance{}, err
		}}
	}
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"no error", nil, ""},
		{"a plain error", fmt.Errorf("user s3cr3t-token missing"), "user the templated value missing"},
		{"a positioned one keeps its position", resources.Errorf(resources.Pos{File: "m.yaml", Line: 2, Col: 3}, "user %q missing", "s3cr3t-token"), "m.yaml:2:3: user the templated value missing"},
		{"every item of a list", resources.ErrorList{resources.Errorf(resources.Pos{File: "m.yaml", Line: 1}, "a s3cr3t-token"), resources.Errorf(resources.Pos{File: "m.yaml", Line: 2}, "b s3cr3t-token")},
			"m.yaml:1: a the templated value\nm.yaml:2: b the templated value"},
		{"one that does not show it is left alone", fmt.Errorf("no such user"), "no such user"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := &resources.Spec{Type: "t", Name: "n", Props: resourcetest.YAMLNode(t, `owner: "{{ token }}"`), Templates: resourcetest.Vars{"token": "s3cr3t-token"}}
			_, err := fail(tc.err).Build(spec)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.want || strings.Contains(got, "s3cr3t") {
				t.Fatalf("error %q, want %q", got, tc.want)
			}
		})
	}
}
