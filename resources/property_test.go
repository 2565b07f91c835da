package resources_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"go.yaml.in/yaml/v3"
)

// octal decodes itself and narrows its schema, as file's mode does.
type octal string

func (*octal) UnmarshalYAML(*yaml.Node) error { return nil }
func (*octal) PropertyKind() resources.Kind   { return resources.KindString }
func (*octal) JSONSchema() map[string]any     { return map[string]any{"pattern": "^0[0-7]{3}$"} }

type propItem struct {
	Key string `yaml:"key"`
}

// propAll declares one property of each kind, with every tag.
type propAll struct {
	resources.Control `yaml:",inline"`
	Skipped           string            `yaml:"-"`
	NoTag             string            ``
	Ensure            string            `yaml:"ensure" help:"the state" enum:"present,absent" cli:"arg=1,short=e,default=present"`
	Enable            *bool             `yaml:"enable" cli:"negate=disable"`
	Count             int64             `yaml:"count" cli:"env=COUNT,alias=n"`
	Names             []string          `yaml:"names" cli:"sep=="`
	Ports             []int             `yaml:"ports" cli:"-"`
	Labels            map[string]string `yaml:"labels" cli:"sep=:"`
	Data              map[string]any    `yaml:"data"`
	Mode              octal             `yaml:"mode"`
	Item              propItem          `yaml:"item"`
	Items             []propItem        `yaml:"items" cli:"one"`
	Body              string            `yaml:"body_text" ccm:"deferred" cli:"file=body-file,filealias=bf,split=mode,flag=body"`
}

func TestPropertiesOf(t *testing.T) {
	props := resources.PropertiesOf(&propAll{})
	var got []string
	for _, p := range props {
		var fields []string
		for _, f := range p.Fields {
			fields = append(fields, f.Name)
		}
		got = append(got, fmt.Sprintf("%s %d %q %v %t %v %v %+v", p.Name, p.Kind, p.Help, p.Enum, p.Deferred, fields, p.Schema, p.CLI))
	}
	want := []string{
		`if 0 "expression: manage the resource only when it is true" [] false [] map[] {Skip:false Arg:0 Flag:if Alias: Short: Default: Env: File: FileAlias: Negate: Split: Sep: One:false}`,
		`unless 0 "expression: do not manage the resource when it is true" [] false [] map[] {Skip:false Arg:0 Flag:unless Alias: Short: Default: Env: File: FileAlias: Negate: Split: Sep: One:false}`,
		`ensure 0 "the state" [present absent] false [] map[] {Skip:false Arg:1 Flag: Alias: Short:e Default:present Env: File: FileAlias: Negate: Split: Sep: One:false}`,
		`enable 1 "" [] false [] map[] {Skip:false Arg:0 Flag: Alias: Short: Default: Env: File: FileAlias: Negate:disable Split: Sep: One:false}`,
		`count 2 "" [] false [] map[] {Skip:false Arg:0 Flag: Alias:n Short: Default: Env:COUNT File: FileAlias: Negate: Split: Sep: One:false}`,
		`names 3 "" [] false [] map[] {Skip:false Arg:0 Flag: Alias: Short: Default: Env: File: FileAlias: Negate: Split: Sep:= One:false}`,
		`ports 4 "" [] false [] map[] {Skip:true Arg:0 Flag: Alias: Short: Default: Env: File: FileAlias: Negate: Split: Sep: One:false}`,
		`labels 5 "" [] false [] map[] {Skip:false Arg:0 Flag: Alias: Short: Default: Env: File: FileAlias: Negate: Split: Sep:: One:false}`,
		`data 7 "" [] false [] map[] {Skip:false Arg:0 Flag: Alias: Short: Default: Env: File: FileAlias: Negate: Split: Sep: One:false}`,
		`mode 0 "" [] false [] map[pattern:^0[0-7]{3}$] {Skip:false Arg:0 Flag: Alias: Short: Default: Env: File: FileAlias: Negate: Split: Sep: One:false}`,
		`item 8 "" [] false [key] map[] {Skip:false Arg:0 Flag: Alias: Short: Default: Env: File: FileAlias: Negate: Split: Sep: One:false}`,
		`items 9 "" [] false [key] map[] {Skip:false Arg:0 Flag: Alias: Short: Default: Env: File: FileAlias: Negate: Split: Sep: One:true}`,
		`body_text 0 "" [] true [] map[] {Skip:false Arg:0 Flag:body Alias: Short: Default: Env: File:body-file FileAlias:bf Negate: Split:mode Sep: One:false}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("properties\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if again := resources.PropertiesOf(propAll{}); &again[0] != &props[0] {
		t.Error("a struct's properties are worked out again at each call, not cached per type")
	}
}

func TestFlagName(t *testing.T) {
	for _, tc := range []struct {
		p    resources.Property
		want string
	}{
		{resources.Property{Name: "body_text"}, "body-text"},
		{resources.Property{Name: "body_text", CLI: resources.CLI{Flag: "body"}}, "body"},
		{resources.Property{Name: "ensure"}, "ensure"},
	} {
		if got := tc.p.FlagName(); got != tc.want {
			t.Errorf("FlagName of %s with flag %q = %q, want %q", tc.p.Name, tc.p.CLI.Flag, got, tc.want)
		}
	}
}

// TestPropertiesOfRefuses: a tag or a field type the decoder cannot
// honour is a programming error, refused by the first test of the type
// with a message naming it.
func TestPropertiesOfRefuses(t *testing.T) {
	for _, tc := range []struct {
		name  string
		props any
		want  string
	}{
		{"an unknown cli option", struct {
			A string `yaml:"a" cli:"shrot=x"`
		}{}, `unknown cli tag option "shrot=x"`},
		{"an argument position from 0", struct {
			A string `yaml:"a" cli:"arg=0"`
		}{}, `cli tag option "arg=0": want arg=N, N from 1`},
		{"an argument position that is no number", struct {
			A string `yaml:"a" cli:"arg=x"`
		}{}, `cli tag option "arg=x"`},
		{"a float", struct {
			A float64 `yaml:"a"`
		}{}, "property type float64 has no Kind"},
		{"a list of maps", struct {
			A []map[string]string `yaml:"a"`
		}{}, "property type []map[string]string has no Kind"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), tc.want) {
					t.Fatalf("recovered %v, want %q", r, tc.want)
				}
			}()
			resources.PropertiesOf(tc.props)
		})
	}
}

// TestCommonProperties: subscribe is offered only to a type that
// consumes refreshes, rollback only to one whose changes can be undone.
func TestCommonProperties(t *testing.T) {
	for _, tc := range []struct {
		typ  resources.Type
		want string
	}{
		{resources.Type{}, "alias require control sensitive health_checks register_when_stable"},
		{resources.Type{Subscribes: true}, "alias require subscribe control sensitive health_checks register_when_stable"},
		{resources.Type{Undoable: true}, "alias require control sensitive health_checks rollback register_when_stable"},
	} {
		var names []string
		for _, p := range tc.typ.CommonProperties() {
			names = append(names, p.Name)
		}
		if got := strings.Join(names, " "); got != tc.want {
			t.Errorf("subscribes %t, undoable %t: %s, want %s", tc.typ.Subscribes, tc.typ.Undoable, got, tc.want)
		}
	}
	if (resources.Type{}).Properties() != nil {
		t.Error("a type without Props has properties")
	}
}
