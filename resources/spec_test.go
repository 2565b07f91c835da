package resources_test

import (
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// TestSpecPositions: a type reports a problem at the value of the
// property at fault, or at the resource's name when the property is not
// written; relative paths resolve against the manifest's directory.
func TestSpecPositions(t *testing.T) {
	spec := &resources.Spec{Type: "file", Name: "/a", Props: resourcetest.YAMLNode(t, "ensure: present\nowner:\n  root\n"), Dir: "/srv/manifests",
		Pos: resources.Pos{File: "m.yaml", Line: 7, Col: 3}}
	for _, tc := range []struct {
		key  string
		has  bool
		want string
	}{
		{"ensure", true, "m.yaml:1:9"},
		{"owner", true, "m.yaml:3:3"},
		{"present", false, "m.yaml:7:3"},
		{"mode", false, "m.yaml:7:3"},
	} {
		if got := spec.KeyPos(tc.key).String(); got != tc.want || spec.Has(tc.key) != tc.has {
			t.Errorf("%s: at %s, set %t; want %s, %t", tc.key, got, spec.Has(tc.key), tc.want, tc.has)
		}
	}
	for p, want := range map[string]string{"": "", "/etc/motd": "/etc/motd", "files/motd": "/srv/manifests/files/motd", "../x": "/srv/x"} {
		if got := spec.Path(p); got != want {
			t.Errorf("Path(%q) = %q, want %q", p, got, want)
		}
	}
	if spec.ID() != "file#/a" {
		t.Errorf("ID %q", spec.ID())
	}
}

// TestHealthStatus: the verdicts are numbered and named as Nagios
// plugins exit, and only CRITICAL and UNKNOWN fail a resource.
func TestHealthStatus(t *testing.T) {
	for _, tc := range []struct {
		exit    int
		name    string
		failing bool
	}{
		{0, "OK", false}, {1, "WARNING", false}, {2, "CRITICAL", true}, {3, "UNKNOWN", true},
	} {
		s := resources.HealthStatus(tc.exit)
		if s.String() != tc.name || s.Failing() != tc.failing {
			t.Errorf("exit %d: %s failing %t, want %s failing %t", tc.exit, s, s.Failing(), tc.name, tc.failing)
		}
	}
}
