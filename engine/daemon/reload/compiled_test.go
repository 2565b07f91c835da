package reload_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/reactive-ccm/ccm/engine/daemon/reload"
	"github.com/reactive-ccm/ccm/graph"
)

// TestCompiledFromListsEveryInput: the manifests, the children they
// apply (one that does not exist yet too), the data files and each
// resources_jet_file, once each, and the data's trees.
func TestCompiledFromListsEveryInput(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"main.yaml":  "ccm: {resources: [{apply: [{child.yaml: {}}, {later.yaml: {}}]}]}\n",
		"child.yaml": "ccm:\n  resources_jet_file: child.jet\n",
		"child.jet":  "- exec:\n    - /bin/true: {}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	main := filepath.Join(dir, "main.yaml")
	g, err := graph.Load([]string{main}, graph.Data{}.Options())
	if err != nil {
		t.Fatal(err)
	}
	in := reload.CompiledFrom([]string{main}, g, reload.Inputs{Files: []string{"hiera.yaml"}, Trees: []string{"facts.d"}})
	want := []string{main, filepath.Join(dir, "child.yaml"), filepath.Join(dir, "later.yaml"), "hiera.yaml", filepath.Join(dir, "child.jet")}
	if !slices.Equal(in.Files, want) {
		t.Errorf("files\n got %q\nwant %q", in.Files, want)
	}
	if !slices.Equal(in.Trees, []string{"facts.d"}) {
		t.Errorf("trees %q", in.Trees)
	}
}
