// Package resourcetest builds resources from YAML snippets for tests, the
// way the graph does, without a whole manifest.
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
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(props), &doc); err != nil {
		t.Fatalf("bad YAML in test: %v", err)
	}
	node := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: 1, Column: 1}
	if doc.Kind != 0 && len(doc.Content) > 0 && doc.Content[0].Kind == yaml.MappingNode {
		node = doc.Content[0]
	}
	spec := &resources.Spec{
		Type: typ, Name: name, Props: node, Dir: dir, Templates: tmpl,
		Pos: resources.Pos{File: "test.yaml", Line: 1, Col: 1},
	}
	return rt.New(spec)
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

// Converge runs one engine-like cycle on r: Check, and when the state is
// not desired or refresh is set, Apply and (unless noop) Check again. It
// returns the change and the final status, failing the test on errors.
func Converge(ctx context.Context, t testing.TB, r resources.Resource, refresh, noop bool) (resources.Change, resources.Status) {
	t.Helper()
	ch, st, err := TryConverge(ctx, r, refresh, noop)
	if err != nil {
		t.Fatalf("converge: %v", err)
	}
	return ch, st
}

// TryConverge is Converge returning the error, including
// resources.ErrDesiredStateFailed when the re-check is not desired.
func TryConverge(ctx context.Context, r resources.Resource, refresh, noop bool) (resources.Change, resources.Status, error) {
	st, err := r.Check(ctx)
	if err != nil {
		return resources.Change{}, st, err
	}
	if st.Desired && !refresh {
		return resources.Change{}, st, nil
	}
	ch, err := r.Apply(ctx, resources.Request{Status: st, Refresh: refresh, Noop: noop})
	if err != nil || noop {
		return ch, st, err
	}
	after, err := r.Check(ctx)
	if err != nil {
		return ch, after, err
	}
	if !after.Desired {
		return ch, after, &DesiredStateError{Reason: after.Reason}
	}
	return ch, after, nil
}

// DesiredStateError is what TryConverge returns when the re-check fails.
type DesiredStateError struct{ Reason string }

func (e *DesiredStateError) Error() string {
	return resources.ErrDesiredStateFailed.Error() + ": " + e.Reason
}

func (e *DesiredStateError) Unwrap() error { return resources.ErrDesiredStateFailed }
