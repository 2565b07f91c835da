package graph_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/graph"
)

// TestControlTable is the user guide's table: a resource is managed when
// if is unset or true and unless is unset or false.
func TestControlTable(t *testing.T) {
	exprs := map[string]string{
		"true":  `lookup("facts.os") == "linux"`,
		"false": `Facts.os == "windows"`,
	}
	tests := []struct {
		ifv, unless string
		managed     bool
	}{
		{"", "", true},
		{"true", "", true},
		{"false", "", false},
		{"", "true", false},
		{"", "false", true},
		{"true", "true", false},
		{"true", "false", true},
		{"false", "true", false},
		{"false", "false", false},
	}
	for _, form := range []string{"expression", "delimited", "boolean"} {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%s if=%q unless=%q", form, tt.ifv, tt.unless), func(t *testing.T) {
				var ctl []string
				for key, v := range map[string]string{"if": tt.ifv, "unless": tt.unless} {
					switch {
					case v == "":
					case form == "expression":
						ctl = append(ctl, fmt.Sprintf("%s: '%s'", key, exprs[v]))
					case form == "delimited":
						ctl = append(ctl, fmt.Sprintf("%s: '${ %s }'", key, exprs[v]))
					default:
						ctl = append(ctl, key+": "+v)
					}
				}
				manifest := "ccm: {resources: [{probe: [{x: {control: {" + strings.Join(ctl, ", ") + "}}}]}]}\n"
				v := loadOne(t, manifest)
				managed := true
				if v.Control != nil {
					var err error
					if managed, err = v.Control(t.Context()); err != nil {
						t.Fatalf("Control: %v", err)
					}
				}
				if managed != tt.managed {
					t.Fatalf("managed = %v, want %v", managed, tt.managed)
				}
			})
		}
	}
}

func loadOne(t *testing.T, manifest string) *graph.Vertex {
	t.Helper()
	g, err := graph.Load([]string{writeManifest(t, "m.yaml", manifest)}, linuxWeb.Options())
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return g.Vertices[0]
}

func TestControlErrors(t *testing.T) {
	load := []struct{ name, control, want string }{
		{"syntax error at load", `{if: 'Facts.os ==='}`, `m.yaml:1:47: probe#x: control.if: expression "Facts.os ==="`},
		{"unknown key", `{when: true}`, `m.yaml:1:43: probe#x: unknown control key "when"`},
		{"not a map", `true`, `m.yaml:1:42: probe#x: control: expected a map`},
		{"list value", `{unless: [a]}`, `m.yaml:1:51: probe#x: control.unless: expected an expression or true/false`},
	}
	for _, tt := range load {
		t.Run(tt.name, func(t *testing.T) {
			manifest := "ccm: {resources: [{probe: [{x: {control: " + tt.control + "}}]}]}\n"
			_, err := graph.Load([]string{writeManifest(t, "m.yaml", manifest)}, linuxWeb.Options())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Load error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
	run := []struct{ name, control, want string }{
		{"not a boolean", `{if: 'Facts.os'}`, `control.if: "Facts.os" gave a string, want true or false`},
		{"missing fact", `{unless: 'lookup("facts.nope") == 1'}`, `control.unless: expression "lookup(\"facts.nope\") == 1": lookup: no value`},
	}
	for _, tt := range run {
		t.Run(tt.name, func(t *testing.T) {
			v := loadOne(t, "ccm: {resources: [{probe: [{x: {control: "+tt.control+"}}]}]}\n")
			_, err := v.Control(t.Context())
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "m.yaml:1:") {
				t.Fatalf("Control error = %v, want a positioned error containing %q", err, tt.want)
			}
		})
	}
}

func TestControlSeesData(t *testing.T) {
	v := loadOne(t, "data: {enabled: false}\nccm: {resources: [{probe: [{x: {control: {if: Data.enabled}}}]}]}\n")
	if managed, err := v.Control(t.Context()); err != nil || managed {
		t.Fatalf("Control = %v, %v; want false (data.enabled is false)", managed, err)
	}
}
