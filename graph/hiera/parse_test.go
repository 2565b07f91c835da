package hiera

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources/template"
	"go.yaml.in/yaml/v3"
)

// TestParse: a hiera document's shape, as a --hiera FILE is written.
func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		// sections lists the sections found, as "data hierarchy overrides".
		sections string
		err      string
	}{
		{"empty", "", "", ""},
		{"every section", "data: {a: 1}\nhierarchy: {order: [x]}\noverrides: {x: {a: 2}}\n", "data hierarchy overrides", ""},
		{"JSON", `{"data": {"a": 1}}`, "data", ""},
		{"a null section is none", "data:\noverrides: ~\n", "", ""},
		{"merge keys are expanded", "d: &d {a: 1}\n", "", `h.yaml:1:1: unknown hiera key "d"`},
		{"a list", "- data\n", "", "h.yaml:1:1: a hiera file is a map with the keys data, hierarchy and overrides"},
		{"a section that is a list", "data: [a]\n", "", "h.yaml:1:7: data: expected a map"},
		{"a section twice", "data: {a: 1}\ndata: {b: 2}\n", "", `h.yaml:2:1: duplicate key "data"`},
		{"broken YAML", "data: {a: 1\n", "", "h.yaml: invalid YAML or JSON:"},
		{"every problem at once", "datum: {}\nhierarchy: 1\n", "", "h.yaml:1:1: unknown hiera key \"datum\"; valid keys: data, hierarchy, overrides\nh.yaml:2:12: hierarchy: expected a map"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, err := Parse("h.yaml", []byte(tc.src))
			got := ""
			if err != nil {
				got = err.Error()
			}
			if (tc.err == "") != (err == nil) || !strings.HasPrefix(got, tc.err) {
				t.Fatalf("error %q, want %q", got, tc.err)
			}
			if err != nil {
				return
			}
			var found []string
			for name, n := range map[string]*yaml.Node{"data": src.Data, "hierarchy": src.Hierarchy, "overrides": src.Overrides} {
				if n != nil {
					found = append(found, name)
				}
			}
			if strings.Join(slices.Sorted(slices.Values(found)), " ") != tc.sections {
				t.Fatalf("sections %v, want %q", found, tc.sections)
			}
		})
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "h.json")
	if err := os.WriteFile(p, []byte(`{"data": {"a": 1}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if src, err := ReadFile(p); err != nil || src.File != p || src.Data == nil {
		t.Fatalf("ReadFile = %+v, %v", src, err)
	}
	if _, err := ReadFile(filepath.Join(dir, "none.yaml")); !errors.Is(err, os.ErrNotExist) || !strings.HasPrefix(err.Error(), "hiera: ") {
		t.Fatalf("a missing file: %v", err)
	}
}

// TestResolveReportsEverySource: problems in several sources are all
// reported, each at its own file, and the annotations are not checked
// over data that failed to resolve.
func TestResolveReportsEverySource(t *testing.T) {
	var srcs []Source
	for file, doc := range map[string]string{"a.yaml": "hierarchy: {merge: shallow}\n", "b.yaml": "data:\n  # @require\n  x:\n  y: \"${ nosuch }\"\n"} {
		src, err := Parse(file, []byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, src)
	}
	_, err := Resolve(template.NewData(template.Env{}), srcs...)
	if err == nil {
		t.Fatal("no error")
	}
	got := err.Error()
	for _, want := range []string{`a.yaml:1:20: hierarchy.merge must be first or deep, got "shallow"`, "b.yaml:4:6: template ${ nosuch }"} {
		if !strings.Contains(got, want) {
			t.Errorf("error %q does not say %q", got, want)
		}
	}
	if strings.Contains(got, "@require") {
		t.Errorf("annotations checked over data that did not resolve: %q", got)
	}
}
