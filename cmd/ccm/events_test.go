package main_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// events runs ccm with args and returns its transaction events, decoded
// as plain maps so absent and empty fields can be told apart.
func events(t *testing.T, args ...string) []map[string]any {
	t.Helper()
	r := ccm(t, append([]string{"run", "--json"}, args...)...)
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var ev map[string]any
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("not JSON: %q", line)
		}
		if ev["protocol"] == "io.choria.ccm.v1.transaction.event" {
			out = append(out, ev)
		}
	}
	return out
}

func TestEventsCarryUpstreamTransactionFields(t *testing.T) {
	tests := []struct {
		name, manifest string
		noop           bool
		want           map[string]any
	}{
		{"a failed exec reports no change and no final state", "- exec:\n    - /bin/false: {}\n", false, map[string]any{
			"changed": false, "final_ensure": "", "failed": true, "status": nil,
			"error":              []any{"failed to reach desired state: exit code 1: exit code 1 not in allowed returns [0]"},
			"unmet_requirements": []any{},
			"properties":         map[string]any{"name": "/bin/false", "ensure": "present"},
		}},
		{"an exec that ran", "- exec:\n    - /bin/true: {alias: yes}\n", false, map[string]any{
			"changed": true, "final_ensure": "present", "error": []any{}, "unmet_requirements": []any{},
			"properties": map[string]any{"name": "/bin/true", "ensure": "present", "alias": "yes"},
		}},
		{"a noop refresh is flagged refreshed", `
- file:
    - @/conf: {ensure: present, content: x, owner: root, group: root, mode: "0644"}
- exec:
    - /bin/true: {subscribe: [file#@/conf], refreshonly: true}
`, true, map[string]any{"changed": true, "refreshed": true, "noop_message": "Would have executed via subscribe"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			args := []string{manifest(t, dir, tt.manifest)}
			if tt.noop {
				args = append([]string{"--noop"}, args...)
			}
			evs := events(t, args...)
			ev := evs[len(evs)-1]
			for k, want := range tt.want {
				if got, ok := ev[k]; !ok || !reflect.DeepEqual(got, want) {
					t.Errorf("%s = %#v (present %v), want %#v", k, got, ok, want)
				}
			}
		})
	}
}

func TestEventStatusIsUpstreamResourceState(t *testing.T) {
	evs := events(t, manifest(t, t.TempDir(), "- exec:\n    - /bin/true: {}\n"))
	st, ok := evs[0]["status"].(map[string]any)
	if !ok {
		t.Fatalf("status = %#v", evs[0]["status"])
	}
	for k, want := range map[string]any{"protocol": "io.choria.ccm.v1.resource.exec.state", "type": "exec", "name": "/bin/true", "ensure": "present", "changed": true, "noop": false} {
		if st[k] != want {
			t.Errorf("status.%s = %#v, want %#v", k, st[k], want)
		}
	}
}
