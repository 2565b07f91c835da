package all_test

import (
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	_ "github.com/reactive-ccm/ccm/resources/all"
)

// TestDeclarations holds every built-in type to what the schema and the
// command line are generated from: declared properties, each with help,
// none shadowing a common property, flag names unique.
func TestDeclarations(t *testing.T) {
	for _, name := range resources.TypeNames() {
		typ, _ := resources.Lookup(name)
		t.Run(name, func(t *testing.T) {
			if typ.Props == nil || typ.Help == "" || typ.NameHelp == "" {
				t.Fatalf("%s: Props, Help and NameHelp must be set", name)
			}
			common := map[string]bool{}
			flags := map[string]string{}
			claim := func(flag, prop string) {
				if flag == "" {
					return
				}
				if other, dup := flags[flag]; dup {
					t.Errorf("flag %q of %s is also %s's", flag, prop, other)
				}
				flags[flag] = prop
			}
			var walk func(props []resources.Property, own bool)
			walk = func(props []resources.Property, own bool) {
				for _, p := range props {
					if p.Help == "" {
						t.Errorf("property %s has no help", p.Name)
					}
					if own && common[p.Name] {
						t.Errorf("property %s shadows the common property", p.Name)
					}
					if p.CLI.Skip {
						continue
					}
					if p.Kind == resources.KindObject || p.Kind == resources.KindObjects {
						walk(p.Fields, own)
						continue
					}
					claim(p.FlagName(), p.Name)
					claim(p.CLI.Alias, p.Name)
					claim(p.CLI.File, p.Name)
					claim(p.CLI.Negate, p.Name)
				}
			}
			for _, p := range typ.CommonProperties() {
				common[p.Name] = true
			}
			walk(typ.CommonProperties(), false)
			walk(typ.Properties(), true)
		})
	}
}
