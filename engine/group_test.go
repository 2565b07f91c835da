package engine_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/resources"
)

// groupFake is a fake that the engine may apply in groups.
type groupFake struct {
	*fake
	key       string
	failApply bool
}

// groupFakeProps are the properties of the "gfake" test type.
type groupFakeProps struct {
	fakeProps `yaml:",inline"`
	// Key is the group key; "" never groups.
	Key string `yaml:"key"`
	// FailApply makes the fake's apply fail, alone or in a group.
	FailApply bool `yaml:"fail_apply"`
}

var _ resources.Groupable = (*groupFake)(nil)

func init() {
	resources.Register(resources.Type{Name: "gfake", New: func(spec *resources.Spec) (resources.Instance, error) {
		var p groupFakeProps
		if err := spec.Decode(&p); err != nil {
			return resources.Instance{}, err
		}
		worldMu.Lock()
		w := current
		worldMu.Unlock()
		f := &groupFake{fake: &fake{name: spec.Name, p: p.fakeProps, w: w}, key: p.Key, failApply: p.FailApply}
		return resources.Instance{Resource: f, Provider: "memory", Ensure: p.Value}, nil
	}})
}

func (g *groupFake) GroupKey() string { return g.key }

func (g *groupFake) Apply(ctx context.Context, req resources.Request) (resources.Change, error) {
	if g.failApply && !req.Noop {
		return resources.Change{}, errors.New("apply of " + g.name + " failed on purpose")
	}
	return g.fake.Apply(ctx, req)
}

// ApplyGroup records the group, then applies each member on its own.
func (g *groupFake) ApplyGroup(ctx context.Context, members []resources.GroupMember) []resources.GroupResult {
	names := make([]string, len(members))
	out := make([]resources.GroupResult, len(members))
	for i, m := range members {
		names[i] = m.Resource.(*groupFake).name
		out[i].Change, out[i].Err = m.Resource.Apply(ctx, m.Request)
	}
	g.w.mu.Lock()
	g.w.groups = append(g.w.groups, names)
	g.w.mu.Unlock()
	return out
}

func TestConsecutiveGroupableResourcesApplyTogether(t *testing.T) {
	tests := []struct {
		name     string
		manifest string
		preset   map[string]string
		opts     engine.Options
		// wantGroups lists each ApplyGroup call's members.
		wantGroups [][]string
		// wantFailed maps each failed resource to a part of its error.
		wantFailed map[string]string
	}{
		{name: "consecutive resources with one key", manifest: `
- gfake:
    - defaults: {key: k, value: "1"}
    - a: {}
    - b: {}
    - c: {}
`, wantGroups: [][]string{{"a", "b", "c"}}},
		{name: "a resource written between them splits the group", manifest: `
- gfake:
    - defaults: {key: k, value: "1"}
    - a: {}
    - b: {}
- fake:
    - bb: {value: "1"}
- gfake:
    - defaults: {key: k, value: "1"}
    - c: {}
`, wantGroups: [][]string{{"a", "b"}}},
		{name: "another key starts another group", manifest: `
- gfake:
    - defaults: {value: "1"}
    - a: {key: k}
    - b: {key: k}
    - c: {key: other}
    - d: {key: other}
`, wantGroups: [][]string{{"a", "b"}, {"c", "d"}}},
		{name: "an empty key never groups", manifest: `
- gfake:
    - defaults: {value: "1"}
    - a: {}
    - b: {}
`},
		{name: "an explicit edge among them orders them one after the other", manifest: `
- gfake:
    - defaults: {key: k, value: "1"}
    - a: {}
    - b: {require: [gfake#a]}
    - c: {}
`, wantGroups: [][]string{{"b", "c"}}},
		{name: "a member already as desired stays out of the call", manifest: `
- gfake:
    - defaults: {key: k, value: "1"}
    - a: {}
    - b: {}
    - c: {}
`, preset: map[string]string{"b": "1"}, wantGroups: [][]string{{"a", "c"}}},
		{name: "a lone change is the resource's own apply", manifest: `
- gfake:
    - defaults: {key: k, value: "1"}
    - a: {}
    - b: {}
`, preset: map[string]string{"b": "1"}},
		{name: "a failure is the failing member's alone", manifest: `
- gfake:
    - defaults: {key: k, value: "1"}
    - a: {}
    - b: {fail_apply: true}
    - c: {}
`, wantGroups: [][]string{{"a", "b", "c"}}, wantFailed: map[string]string{"b": "apply of b failed on purpose"}},
		{name: "each member's change is checked again", manifest: `
- gfake:
    - defaults: {key: k, value: "1"}
    - a: {}
    - b: {stuck: true}
    - c: {}
`, wantGroups: [][]string{{"a", "b", "c"}}, wantFailed: map[string]string{"b": resources.ErrDesiredStateFailed.Error()}},
		{name: "noop groups nothing", opts: engine.Options{Noop: true}, manifest: `
- gfake:
    - defaults: {key: k, value: "1"}
    - a: {}
    - b: {}
`},
		{name: "fail_on_error groups nothing", manifest: `
ccm:
  fail_on_error: true
  resources:
    - gfake:
        - defaults: {key: k, value: "1"}
        - a: {}
        - b: {}
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			for k, v := range tt.preset {
				w.set(k, v)
			}
			tt.opts.Workers = 4
			_, rec := runOnce(t, load(t, tt.manifest), tt.opts)
			w.mu.Lock()
			groups := w.groups
			w.mu.Unlock()
			if !slices.EqualFunc(groups, tt.wantGroups, slices.Equal) {
				t.Errorf("groups applied = %v, want %v", groups, tt.wantGroups)
			}
			checkGroupEvents(t, rec, tt.preset, tt.opts.Noop, tt.wantFailed)
		})
	}
}

// checkGroupEvents checks that each resource has its own event, in
// manifest order: failed with its own error, or changed unless preset.
func checkGroupEvents(t *testing.T, rec *recorder, preset map[string]string, noop bool, failed map[string]string) {
	t.Helper()
	var names []string
	for _, ev := range rec.events {
		names = append(names, ev.Name)
		want, fails := failed[ev.Name]
		switch {
		case fails:
			if !ev.Failed || len(ev.Error) != 1 || !strings.Contains(ev.Error[0], want) {
				t.Errorf("%s: failed %v, error %q; want it failed with %q", ev.ID(), ev.Failed, ev.Error, want)
			}
		case ev.Failed || ev.Changed == (preset[ev.Name] != ""):
			t.Errorf("%s: failed %v, changed %v, error %q; want changed only when not preset", ev.ID(), ev.Failed, ev.Changed, ev.Error)
		case noop && ev.Changed && ev.NoopMessage != "Would have set 1":
			t.Errorf("%s: noop message %q, want its own", ev.ID(), ev.NoopMessage)
		}
	}
	// Every manifest above is written in the order of its names.
	if !slices.IsSorted(names) {
		t.Errorf("events in the order %v, want manifest order", names)
	}
}

func TestGroupMembersRunTheirOwnHealthChecks(t *testing.T) {
	w := newWorld(t)
	ok, _ := plugin(t, "0")
	critical, _ := plugin(t, "2")
	_, rec := runOnce(t, load(t, `
- gfake:
    - defaults: {key: k, value: "1"}
    - a: {health_checks: [{command: '`+ok+`'}]}
    - b: {health_checks: [{command: '`+critical+`'}]}
    - c: {}
`), engine.Options{})
	w.mu.Lock()
	groups := w.groups
	w.mu.Unlock()
	if !slices.EqualFunc(groups, [][]string{{"a", "b", "c"}}, slices.Equal) {
		t.Errorf("groups applied = %v, want a, b and c together", groups)
	}
	evs := rec.byID()
	if a := evs["gfake#a"]; a.Failed || !a.Changed || len(a.HealthChecks) != 1 || a.HealthChecks[0].Status != resources.HealthOK {
		t.Errorf("gfake#a: %+v, want changed with its check OK", a)
	}
	if b := evs["gfake#b"]; !b.Failed || len(b.HealthChecks) != 1 || b.HealthChecks[0].Status != resources.HealthCritical {
		t.Errorf("gfake#b: %+v, want failed by its CRITICAL check", b)
	}
	if c := evs["gfake#c"]; c.Failed || !c.Changed || len(c.HealthChecks) != 0 {
		t.Errorf("gfake#c: %+v, want changed with no checks", c)
	}
}
