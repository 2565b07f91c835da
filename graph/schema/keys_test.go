package schema_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/graph/schema"
	"github.com/reactive-ccm/ccm/resources"
)

// loadErr loads src and returns its error text, "" when it loads.
func loadErr(t *testing.T, src string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "m.yaml")
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := graph.Load([]string{f}, graph.Options{}); err != nil {
		return err.Error()
	}
	return ""
}

var validList = regexp.MustCompile(`valid (?:keys|properties): ([a-z_, ]+)`)

// accepts finds the keys the loader names as valid when it refuses an
// unknown one in src (written with the key "bogus").
func accepts(t *testing.T, src string) []string {
	t.Helper()
	m := validList.FindStringSubmatch(loadErr(t, src))
	if m == nil {
		t.Fatalf("the loader names no valid keys refusing %q", src)
	}
	return strings.Split(m[1], ", ")
}

// schemaKeys returns the properties of a definition of the manifest schema.
func schemaKeys(t *testing.T, def string) map[string]any {
	t.Helper()
	d, ok := schema.Manifest()["definitions"].(map[string]any)[def].(map[string]any)
	if !ok {
		t.Fatalf("no definition %s in the schema", def)
	}
	return d["properties"].(map[string]any)
}

// TestManifestSchemaHasEveryKeyTheLoaderAccepts walks what the loader
// takes (its top level, ccm:, each type's properties and the common ones)
// and finds each key in the schema: an editor never flags a manifest the
// loader runs for a key it does not know.
func TestManifestSchemaHasEveryKeyTheLoaderAccepts(t *testing.T) {
	const res = "resources: [{exec: [{/bin/true: {}}]}]"
	sections := []struct{ name, src, def string }{
		{"top level", "bogus: 1\nccm: {" + res + "}\n", "manifest"},
		{"ccm", "ccm: {bogus: 1, " + res + "}\n", "ccm"},
	}
	for _, s := range sections {
		inSchema := schemaKeys(t, s.def)
		for _, k := range accepts(t, s.src) {
			if _, ok := inSchema[k]; !ok {
				t.Errorf("%s: the loader accepts %s, the schema does not have it", s.name, k)
			}
		}
	}
	if len(schemaKeys(t, "ccm")) != len(accepts(t, sections[1].src)) {
		t.Errorf("the schema's ccm: section has keys the loader refuses")
	}
	for _, typ := range resources.TypeNames() {
		inSchema := schemaKeys(t, typ+"_properties")
		keys := accepts(t, "ccm: {resources: [{"+typ+": [{x: {bogus: 1}}]}]}\n")
		for _, p := range resources.PropertiesOf(resources.Common{}) {
			if !strings.Contains(loadErr(t, "ccm: {resources: [{"+typ+": [{x: {"+p.Name+": null}}]}]}\n"), `unknown property "`+p.Name+`"`) {
				keys = append(keys, p.Name)
			}
		}
		for _, k := range keys {
			if _, ok := inSchema[k]; !ok {
				t.Errorf("%s: the loader accepts %s, the schema does not have it", typ, k)
			}
		}
	}
}
