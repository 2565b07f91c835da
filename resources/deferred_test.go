package resources_test

import (
	"errors"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"go.yaml.in/yaml/v3"
)

var errShort = errors.New("too short")

func atLeast3(s string) error {
	if len(s) < 3 {
		return errShort
	}
	return nil
}

func TestDeferred(t *testing.T) {
	pos := resources.Pos{File: "m.yaml", Line: 4, Col: 9}
	tmpl := resourcetest.Vars{"dir": "/srv", "x": "x"}
	tests := []struct {
		name        string
		d           resources.Deferred
		want        string
		wantLiteral bool
		wantErr     string
	}{
		{"a literal is used as written", resources.NewDeferred(tmpl, "cwd", "/opt", pos), "/opt", true, ""},
		{"a template is resolved at use", resources.NewDeferred(tmpl, "cwd", "{{ dir }}/app", pos), "/srv/app", false, ""},
		{"Literal templates never resolve", resources.NewDeferred(resources.Literal{}, "command", "{{ dir }}", pos), "{{ dir }}", true, ""},
		{"a failed template names the property", resources.NewDeferred(tmpl, "cwd", "{{ nope }}", pos), "", false,
			`m.yaml:4:9: cwd: unknown name "nope"`},
		{"the check sees the resolved value", resources.NewDeferred(tmpl, "environment: item 2", "{{ x }}", pos).WithCheck(atLeast3), "", false,
			"m.yaml:4:9: environment: item 2: too short"},
		{"a passing check", resources.NewDeferred(tmpl, "cwd", "{{ dir }}", pos).WithCheck(atLeast3), "/srv", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !tt.d.IsSet() {
				t.Error("a built Deferred is not set")
			}
			if _, literal := tt.d.Literal(); literal != tt.wantLiteral {
				t.Errorf("literal = %v, want %v", literal, tt.wantLiteral)
			}
			got, err := tt.d.Resolve()
			resourcetest.Returns(t, "Resolve()", got, err, tt.want, tt.wantErr)
		})
	}
}

func TestDeferredWrapsTheCheckError(t *testing.T) {
	d := resources.NewDeferred(resources.Literal{}, "cwd", "ab", resources.Pos{}).WithCheck(atLeast3)
	if _, err := d.Resolve(); !errors.Is(err, errShort) {
		t.Fatalf("got %v, want it to wrap the check's error", err)
	}
}

func TestUnsetDeferred(t *testing.T) {
	var d resources.Deferred
	if _, literal := d.Literal(); d.IsSet() || literal {
		t.Fatal("the zero Deferred must be unset and not a literal")
	}
}

func TestSpecDeferPositionsAtTheProperty(t *testing.T) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte("ensure: present\ncwd: \"{{ nope }}\"\n"), &doc); err != nil {
		t.Fatal(err)
	}
	spec := &resources.Spec{
		Type: "exec", Name: "x", Props: doc.Content[0], Templates: resourcetest.Vars{},
		Pos: resources.Pos{File: "m.yaml", Line: 1, Col: 1},
	}
	_, err := spec.Defer("cwd", "{{ nope }}").Resolve()
	if want := `m.yaml:2:6: cwd: unknown name "nope"`; err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
}
