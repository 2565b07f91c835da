package resources_test

import (
	"context"
	"slices"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
)

func init() {
	resources.Register(resources.Type{
		Name: "probe", Aliases: []string{"pr"},
		New:     func(*resources.Spec) (resources.Instance, error) { return resources.Instance{}, nil },
		Inspect: func(context.Context, string) (any, error) { return nil, nil },
	})
}

func TestNamedFindsATypeByNameOrAlias(t *testing.T) {
	for name, want := range map[string]string{"probe": "probe", "pr": "probe", "greeting": "greeting", "nothing": ""} {
		got, ok := resources.Named(name)
		if ok != (want != "") || got.Name != want {
			t.Errorf("Named(%q) = %q, %t; want %q", name, got.Name, ok, want)
		}
	}
}

func TestInspectableListsTheTypesWithInspect(t *testing.T) {
	got := resources.Inspectable()
	if !slices.Contains(got, "probe") || slices.Contains(got, "greeting") || !slices.IsSorted(got) {
		t.Fatalf("Inspectable() = %v", got)
	}
}
