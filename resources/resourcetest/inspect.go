package resourcetest

import (
	"encoding/json"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
)

// Inspect is what `ccm status TYPE NAME` reports, as JSON: type typ's
// Inspect of name. An error, or a type without Inspect, fails the test.
func Inspect(t testing.TB, typ, name string) string {
	t.Helper()
	rt, ok := resources.Lookup(typ)
	if !ok || rt.Inspect == nil {
		t.Fatalf("resource type %q is not registered or has no Inspect", typ)
	}
	md, err := rt.Inspect(t.Context(), name)
	if err != nil {
		t.Fatalf("inspecting %s %s: %v", typ, name, err)
	}
	b, err := json.Marshal(md)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
