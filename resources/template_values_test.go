package resources_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// TestTemplateValueTypes: a property that is one template takes the type
// of what it resolves to, whatever Go type the template engine gives,
// and inside lists and maps too.
func TestTemplateValueTypes(t *testing.T) {
	vars := resourcetest.Vars{"i64": int64(8080), "f": 2.0, "ports": []any{80, int64(443)}, "env": map[string]any{"A": "x"}, "none": nil, "yes": true}
	for _, tc := range []struct {
		src   string
		check func(p edgeProps) bool
	}{
		{`small: "{{ i64 }}"`, func(p edgeProps) bool { return p.Small == 8080 }},
		{`big: "{{ i64 }}"`, func(p edgeProps) bool { return p.Big == 8080 }},
		{`ports: "{{ ports }}"`, func(p edgeProps) bool { return fmt.Sprint(p.Ports) == "[80 443]" }},
		{`ports: ["{{ i64 }}", 1]`, func(p edgeProps) bool { return fmt.Sprint(p.Ports) == "[8080 1]" }},
		{`env: "{{ env }}"`, func(p edgeProps) bool { return p.Env["A"] == "x" }},
		{`env: {B: "{{ i64 }}"}`, func(p edgeProps) bool { return p.Env["B"] == "8080" }},
		{`owner: "{{ f }}"`, func(p edgeProps) bool { return p.Owner == "2" }},
		{`force: "{{ yes }}"`, func(p edgeProps) bool { return p.Force != nil && *p.Force }},
		{`force: "{{ none }}"`, func(p edgeProps) bool { return p.Force == nil }},
		{`owner: "id-{{ i64 }}"`, func(p edgeProps) bool { return p.Owner == "id-8080" }},
	} {
		t.Run(tc.src, func(t *testing.T) {
			if _, err := resourcetest.BuildWith(t, "edge", "x", tc.src, "", vars); err != nil || !tc.check(edgeDecoded) {
				t.Fatalf("decoded %+v, %v", edgeDecoded, err)
			}
		})
	}
}

// TestTemplateValueErrors: a template's value of the wrong shape, or one
// that fails, is reported at the property, without the value.
func TestTemplateValueErrors(t *testing.T) {
	vars := resourcetest.Vars{"f": 2.5, "env": map[string]any{"A": "secret-value"}}
	for _, tc := range []struct{ src, want string }{
		{`small: "{{ f }}"`, "test.yaml:1:8: small: expected an integer, got the templated value"},
		{`ports: [1, "{{ nope }}"]`, `test.yaml:1:8: ports: unknown name "nope"`},
		{`owner: "{{ env }}"`, "test.yaml:1:8: owner: expected a string, got a map"},
	} {
		t.Run(tc.src, func(t *testing.T) {
			_, err := resourcetest.BuildWith(t, "edge", "x", tc.src, "", vars)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) || strings.Contains(err.Error(), "secret-value") {
				t.Fatalf("error %v, want it to start %q", err, tc.want)
			}
		})
	}
}
