// Package resourcetest builds resources from YAML snippets for tests, the
// way the graph does, without a whole manifest; with Vars, a small template
// environment, a package's build helper (Builder), helpers for the files
// tests write and read, the checks many types' tests share (Rejects,
// ReportsAll, Declares, ConvergeError, Returns) and the attacks a test
// runs as Nobody (AsNobody, Race, Racing, Hold, Victim).
package resourcetest

import (
	"context"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"go.yaml.in/yaml/v3"
)

// Build decodes props (a YAML mapping) and builds a resource of type typ
// named name, with literal templates and dir as the manifest directory.
// It returns the type's error, for tests of validation.
func Build(t testing.TB, typ, name, props, dir string) (resources.Instance, error) {
	t.Helper()
	return BuildWith(t, typ, name, props, dir, resources.Literal{})
}

// BuildWith is Build with a template environment.
func BuildWith(t testing.TB, typ, name, props, dir string, tmpl resources.Templates) (resources.Instance, error) {
	t.Helper()
	rt, ok := resources.Lookup(typ)
	if !ok {
		t.Fatalf("resource type %q is not registered", typ)
	}
	node := YAMLNode(t, props)
	if node.Kind != yaml.MappingNode {
		node = YAMLNode(t, "")
	}
	spec := &resources.Spec{
		Type: typ, Name: name, Props: node, Dir: dir, Templates: tmpl,
		Pos: resources.Pos{File: "test.yaml", Line: 1, Col: 1},
	}
	return rt.Build(spec)
}

// MustBuild is Build that fails the test on error.
func MustBuild(t testing.TB, typ, name, props, dir string) resources.Instance {
	t.Helper()
	inst, err := Build(t, typ, name, props, dir)
	if err != nil {
		t.Fatalf("building %s#%s: %v", typ, name, err)
	}
	return inst
}

// Builder returns a package's build helper for type typ: it builds as
// MustBuild does, in a temporary manifest directory, and returns the
// resource.
func Builder(typ string) func(t testing.TB, name, props string) resources.Resource {
	return func(t testing.TB, name, props string) resources.Resource {
		t.Helper()
		return MustBuild(t, typ, name, props, t.TempDir()).Resource
	}
}

// BuildError builds as Build does and returns the error's text, for tests
// of validation; a build that succeeds fails the test.
func BuildError(t testing.TB, typ, name, props, dir string) string {
	t.Helper()
	_, err := Build(t, typ, name, props, dir)
	if err == nil {
		t.Fatalf("%s#%s built without error", typ, name)
	}
	return err.Error()
}

// ConvergeError builds as BuildWith does, with vars as the templates and a
// temporary manifest directory, converges the resource and returns the
// error's text, for tests of what fails at run time; a build that fails,
// or a converge that succeeds, fails the test.
func ConvergeError(t testing.TB, typ, name, props string, vars Vars) string {
	t.Helper()
	inst, err := BuildWith(t, typ, name, props, t.TempDir(), vars)
	if err != nil {
		t.Fatalf("building %s#%s: %v", typ, name, err)
	}
	if _, err := resources.Converge(t.Context(), inst.Resource, false, false); err != nil {
		return err.Error()
	}
	t.Fatalf("%s#%s converged without error", typ, name)
	return ""
}

// Converge runs resources.Converge and fails the test on error.
func Converge(ctx context.Context, t testing.TB, r resources.Resource, refresh, noop bool) resources.Outcome {
	t.Helper()
	out, err := resources.Converge(ctx, r, refresh, noop)
	if err != nil {
		t.Fatalf("converge: %v", err)
	}
	return out
}
