package graph_test

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/graph"
)

// TestManifestSettings: the ccm: section's settings as ParseManifest
// reads them.
func TestManifestSettings(t *testing.T) {
	m, err := graph.ParseManifest(writeManifest(t, "m.yaml", `
ccm:
  pre_message: starting
  post_message: "done: {{ x }}"
  fail_on_error: true
  parallel: false
  resources:
    - thing:
        - a: {}
`))
	if err != nil {
		t.Fatal(err)
	}
	if m.PreMessage != "starting" || m.PostMessage != "done: {{ x }}" || !m.FailOnError || m.Parallel || m.Resources == nil ||
		!filepath.IsAbs(m.Dir) || filepath.Dir(m.File) != m.Dir {
		t.Fatalf("manifest %+v", m)
	}
	if _, err := graph.ParseManifest(filepath.Join(t.TempDir(), "none.yaml")); !errors.Is(err, fs.ErrNotExist) || !strings.HasPrefix(err.Error(), "reading manifest: ") {
		t.Fatalf("a missing manifest: %v", err)
	}
}

// TestManifestErrors: what the top of a manifest may not be, each
// reported where it is written.
func TestManifestErrors(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"a map without ccm", "data: {a: 1}\n", "m.yaml:1:1: manifest has no ccm: section with resources"},
		{"ccm twice", "ccm:\n  resources: [{thing: [{a: {}}]}]\nccm: {}\n", `m.yaml:3:1: duplicate key "ccm" (first set at line 1)`},
		{"a ccm key twice", "ccm:\n  parallel: true\n  parallel: false\n  resources: [{thing: [{a: {}}]}]\n", `m.yaml:3:3: duplicate key "parallel" (first set at line 2)`},
		{"resources and a Jet file", "ccm:\n  resources: [{thing: [{a: {}}]}]\n  resources_jet_file: r.jet\n",
			"m.yaml:3:23: resources and resources_jet_file are mutually exclusive"},
		{"a Jet file that is no string", "ccm:\n  resources_jet_file: [r.jet]\n",
			"m.yaml:2:3: ccm: needs resources (or resources_jet_file)\nm.yaml:2:23: resources_jet_file: expected a string, got a list"},
		{"a NUL in a value and in a key", "- thing:\n    - \"a\\0b\": {value: \"x\\0\"}\n",
			"m.yaml:2:7: \"a\\x00b\" contains a NUL byte (\\0); remove it\nm.yaml:2:23: \"x\\x00\" contains a NUL byte (\\0); remove it"},
		{"an empty document", "# nothing\n", "m.yaml: manifest is empty; it needs a ccm: resources: list"},
		{"a null document", "~\n", "m.yaml:1:1: a manifest is a map with a ccm: key, or a list of resources; got nothing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := loadErr(t, tc.src); !strings.HasPrefix(got, tc.want) {
				t.Fatalf("got\n%s\nwant it to start\n%s", got, tc.want)
			}
		})
	}
}

// TestSectionKeysAreCopies: the keys the schema is generated from are
// the loader's own, and changing the list handed out changes neither.
func TestSectionKeysAreCopies(t *testing.T) {
	for name, keys := range map[string]func() []graph.SectionKey{"top": graph.TopKeys, "ccm": graph.CCMKeys} {
		first := keys()
		if len(first) == 0 {
			t.Fatalf("%s: no keys", name)
		}
		first[0].Name = "changed"
		if keys()[0].Name == "changed" {
			t.Errorf("%s: the loader's keys were changed through the copy", name)
		}
	}
	var names []string
	for _, k := range graph.CCMKeys() {
		names = append(names, k.Name)
	}
	if got := strings.Join(names, " "); got != "fail_on_error parallel post_message pre_message resources resources_jet_file" {
		t.Errorf("ccm keys %s", got)
	}
	mustLoad(t, "ccm:\n  resources: [{thing: [{a: {}}]}]\n")
}

// TestATemplateNamingAFunction: a template naming a function without
// calling it, in data or in a property, is an error at its place; it
// crashed ccm (the YAML encoder panicked on the function).
func TestATemplateNamingAFunction(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"in a property", "- thing:\n    - a: {value: \"{{ lookup }}\"}\n", "m.yaml:2:18: value: template {{ lookup }}: gives a function, not a value"},
		{"in data", "data:\n  a: \"{{ toJSON }}\"\nccm:\n  resources:\n    - thing:\n        - a: {}\n", "m.yaml:2:6: template {{ toJSON }}: gives a function, not a value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := writeManifest(t, "m.yaml", tc.src)
			_, err := graph.Load([]string{f}, graph.Data{}.Options())
			if err == nil || !strings.HasPrefix(strings.ReplaceAll(err.Error(), f, "m.yaml"), tc.want) {
				t.Fatalf("error %v, want it to start %q", err, tc.want)
			}
		})
	}
}
