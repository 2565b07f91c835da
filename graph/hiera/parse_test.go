package hiera

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

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
