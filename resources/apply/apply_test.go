package apply_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/resourcetest"

	_ "github.com/reactive-ccm/ccm/resources/apply"
)

// TestInclude: the child manifest's path is taken from the parent's
// directory, and each property becomes the include's; allow_apply is
// true unless set false.
func TestInclude(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, props string
		want        resources.Include
	}{
		{name: "child.yaml", want: resources.Include{File: filepath.Join(dir, "child.yaml"), Nested: true}},
		{name: "/srv/c.yaml", props: "noop: true\nhealth_check_only: true\nallow_apply: false\ndata: {a: 1}\nensure: present\nprovider: ccmmanifest",
			want: resources.Include{File: "/srv/c.yaml", Noop: true, HealthCheckOnly: true, Data: map[string]any{"a": 1}}},
		{name: "sub/../c.yaml", props: "allow_apply: true", want: resources.Include{File: filepath.Join(dir, "c.yaml"), Nested: true}},
	} {
		inst := resourcetest.MustBuild(t, "apply", c.name, c.props, dir)
		if inst.Include == nil || fmt.Sprint(*inst.Include) != fmt.Sprint(c.want) {
			t.Errorf("%s: include %+v, want %+v", c.name, inst.Include, c.want)
		}
		if inst.Provider != "ccmmanifest" || inst.Ensure != "present" {
			t.Errorf("%s: provider %q ensure %q", c.name, inst.Provider, inst.Ensure)
		}
	}
}

// TestValidation: the problems upstream's apply refuses, at their
// positions.
func TestValidation(t *testing.T) {
	resourcetest.Rejects(t, "apply", []resourcetest.Rejected{
		{Case: "url", Name: "https://example.net/m.yaml", Want: "test.yaml:1:1: apply#https://example.net/m.yaml: the child manifest must be a local file, not a URL"},
		{Case: "ensure", Name: "c.yaml", Props: "ensure: absent", Want: `test.yaml:1:9: apply#c.yaml: ensure: "absent" is not supported; apply only has ensure: present`},
		{Case: "provider", Name: "c.yaml", Props: "provider: shell", Want: `test.yaml:1:11: apply#c.yaml: provider: unknown provider "shell"; valid providers: ccmmanifest`},
		{Case: "unknown property", Name: "c.yaml", Props: "manifest: x", Want: `unknown property "manifest"`},
	})
}

// TestChildVertex: the apply resource is always in order by itself and
// reports a refresh from its child's resources as its change, in noop
// saying so.
func TestChildVertex(t *testing.T) {
	r := resourcetest.MustBuild(t, "apply", "c.yaml", "", t.TempDir()).Resource
	st, err := r.Check(t.Context())
	if err != nil || !st.Desired || st.Ensure != "present" {
		t.Errorf("check %+v, %v", st, err)
	}
	if w := r.Watch(); len(w.Paths) != 0 || w.Poll != 0 {
		t.Errorf("watch %+v, want nothing", w)
	}
	for noop, msg := range map[bool]string{false: "", true: "Would have changed resources of the child manifest"} {
		c, err := r.Apply(t.Context(), resources.Request{Refresh: true, Noop: noop})
		if err != nil || !c.Changed || c.NoopMessage != msg {
			t.Errorf("apply (noop %v): %+v, %v", noop, c, err)
		}
	}
}

// TestEveryProblemAtOnce: a bad apply resource's problems are reported
// together, each at its own position.
func TestEveryProblemAtOnce(t *testing.T) {
	resourcetest.ReportsAll(t, "apply", "obj://b/m.yaml", "ensure: absent\nprovider: shell\nnoop: maybe",
		"test.yaml:1:9: apply#obj://b/m.yaml: ensure:",
		"test.yaml:2:11: apply#obj://b/m.yaml: provider:",
		"test.yaml:1:1: apply#obj://b/m.yaml: the child manifest must be a local file",
		"test.yaml:3:7:")
}
