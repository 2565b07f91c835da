package graph_test

import (
	"context"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
)

// undoable is a resource type whose changes can be undone, as file's
// and service's are.
type undoable struct{ thing }

func (undoable) Save(context.Context) ([]byte, error)          { return nil, nil }
func (undoable) Restore(context.Context, []byte) (bool, error) { return false, nil }

var _ resources.Undoable = undoable{}

func init() {
	resources.Register(resources.Type{Name: "undoable", Undoable: true, New: func(spec *resources.Spec) (resources.Instance, error) {
		return resources.Instance{Resource: undoable{}}, spec.Decode(&struct{}{})
	}})
}

// TestRollbackSetting: a resource whose changes can be undone may say
// whether to roll back, overriding the run's --rollback; unset leaves it
// to the run.
func TestRollbackSetting(t *testing.T) {
	for _, tc := range []struct{ name, props, want string }{
		{"unset", "{}", "run's"},
		{"on", "{rollback: true}", "true"},
		{"off", "{rollback: false}", "false"},
		{"YAML's other spelling", "{rollback: True}", "true"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := mustLoad(t, "- undoable:\n    - a: "+tc.props+"\n").Vertices[0]
			got := "run's"
			if v.Rollback != nil {
				got = map[bool]string{true: "true", false: "false"}[*v.Rollback]
			}
			if got != tc.want {
				t.Fatalf("rollback %s, want %s", got, tc.want)
			}
		})
	}
}

func TestRollbackErrors(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"a word", "- undoable:\n    - a: {rollback: sometimes}\n", `m.yaml:2:21: undoable#a: rollback: expected true or false, got the string "sometimes"`},
		{"a list", "- undoable:\n    - a: {rollback: [true]}\n", "m.yaml:2:21: undoable#a: rollback: expected true or false, got a list"},
		{"on a type that cannot undo", "- thing:\n    - a: {rollback: true}\n", `m.yaml:2:11: unknown property "rollback" for thing#a`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := loadErr(t, tc.src); !strings.HasPrefix(got, tc.want) {
				t.Fatalf("got\n%s\nwant it to start\n%s", got, tc.want)
			}
		})
	}
}
