package inputs_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/engine/daemon/inputs"
	"github.com/reactive-ccm/ccm/engine/fleet/source"
	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/graph/facts"
	_ "github.com/reactive-ccm/ccm/resources/all"
)

func write(t *testing.T, path, content string) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The overlays are read at Load, so a bad one fails the load even when no
// template needs the facts.
func TestLoadReadsOverlaysAtOnce(t *testing.T) {
	dir := t.TempDir()
	bad := write(t, filepath.Join(dir, "facts.yaml"), "role: [unclosed\n")
	_, err := inputs.Data{Facts: facts.Options{Dirs: []string{}, Files: []string{bad}}}.Load(t.Context())
	if err == nil || !strings.Contains(err.Error(), "facts.yaml") {
		t.Fatalf("Load with a bad facts file: %v, want an error naming it", err)
	}
}

// The facts templates see are the host's (from the cache) under the
// overlays, gathered once however many loads read them.
func TestLoadFactsOverTheHosts(t *testing.T) {
	var cache facts.Cache
	d := inputs.Data{Facts: facts.Options{Dirs: []string{}, Set: []string{"role=web"}}, System: &cache}
	for range 2 {
		data, err := d.Load(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		got := data.LoadFacts()
		if got["role"] != "web" {
			t.Fatalf("role = %v, want web (the overlay)", got["role"])
		}
		if _, ok := got["hostname"]; !ok {
			t.Fatalf("the host's facts are missing: %v", got)
		}
	}
}

// Layers are merged over the manifest's data in order; without remote
// sources, kvGet() has nothing to answer it.
func TestLoadLayersInOrder(t *testing.T) {
	dir := t.TempDir()
	a := write(t, filepath.Join(dir, "a.yaml"), "data: {word: a, only_a: yes}\n")
	b := write(t, filepath.Join(dir, "b.yaml"), "data: {word: b}\n")
	m := write(t, filepath.Join(dir, "m.yaml"), "data: {word: m}\nccm:\n  resources:\n  - file:\n      - "+filepath.Join(dir, "out")+
		": {ensure: present, owner: root, group: root, mode: \"0644\", content: \"${ Data.word } ${ Data.only_a }\"}\n")
	d := inputs.Data{Facts: facts.Options{Dirs: []string{}}, Hiera: []string{a, b}}
	data, err := d.Load(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(data.Layers) != 2 || data.KV != nil || data.Registry != nil {
		t.Fatalf("data: %+v", data)
	}
	r, err := graph.Render(m, data.Options())
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(r.Document["data"]); got != "map[only_a:yes word:b]" {
		t.Fatalf("data %s, want b over a over m", got)
	}
}

func TestLoadMissingLayer(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope.yaml")
	if _, err := (inputs.Data{Facts: facts.Options{Dirs: []string{}}, Hiera: []string{missing}}).Load(t.Context()); err == nil || !strings.Contains(err.Error(), "nope.yaml") {
		t.Fatalf("Load with a missing layer: %v, want an error naming it", err)
	}
}

// What a daemon watches: the manifest, the local layers and facts files
// (not the remote ones), and the overlay directories as trees.
func TestInputs(t *testing.T) {
	dir := t.TempDir()
	m := write(t, filepath.Join(dir, "m.yaml"), "- file: []\n")
	layer := write(t, filepath.Join(dir, "layer.yaml"), "data: {}\n")
	factsFile := write(t, filepath.Join(dir, "facts.json"), "{}\n")
	factsDir := filepath.Join(dir, "facts.d")
	d := inputs.Data{Facts: facts.Options{Dirs: []string{factsDir}, Files: []string{factsFile}}, Hiera: []string{layer, "kv://B/K"}}
	g, err := graph.Load([]string{m}, graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	in := d.Inputs([]string{m}, g)
	for _, f := range []string{m, layer, factsFile} {
		if !slices.Contains(in.Files, f) {
			t.Errorf("%s is not watched: %v", f, in.Files)
		}
	}
	if slices.ContainsFunc(in.Files, func(f string) bool { return strings.Contains(f, "kv:") }) {
		t.Errorf("a remote layer is watched as a file: %v", in.Files)
	}
	if !slices.Contains(in.Trees, filepath.Join(factsDir, "facts.d")) || in.Remote != nil {
		t.Errorf("trees %v, remote %v; want %s/facts.d and none", in.Trees, in.Remote != nil, factsDir)
	}
}

// Compile loads the manifests with d's data and says what from; a
// manifest with problems is an error of the graph, not of a source.
func TestCompile(t *testing.T) {
	dir := t.TempDir()
	layer := write(t, filepath.Join(dir, "layer.yaml"), "data: {word: hello}\n")
	m := write(t, filepath.Join(dir, "m.yaml"), "- file:\n    - "+filepath.Join(dir, "out")+
		": {ensure: present, owner: root, group: root, mode: \"0644\", content: \"${ Data.word }\"}\n")
	d := inputs.Data{Facts: facts.Options{Dirs: []string{}}, Hiera: []string{layer}}
	g, in, err := d.Compile(t.Context(), []string{m}, graph.ChildrenAtLoad)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Vertices) != 1 || !slices.Contains(in.Files, m) || !slices.Contains(in.Files, layer) {
		t.Fatalf("%d vertices, inputs %v", len(g.Vertices), in.Files)
	}
	bad := write(t, filepath.Join(dir, "bad.yaml"), "- file: {bad\n")
	_, _, err = d.Compile(t.Context(), []string{bad}, graph.ChildrenAtLoad)
	var src *inputs.SourceError
	if err == nil || errors.As(err, &src) || !strings.Contains(err.Error(), "bad.yaml:1") {
		t.Fatalf("Compile of a broken manifest: %v; want the graph's error at bad.yaml:1", err)
	}
}

// An address no source can use is a SourceError, however the graph
// would have read it.
func TestCompileBadAddress(t *testing.T) {
	d := inputs.Data{Facts: facts.Options{Dirs: []string{}}, Sources: source.NewSet(t.Context(), source.Options{})}
	_, _, err := d.Compile(t.Context(), []string{"obj://no bucket/x"}, graph.ChildrenAtLoad)
	var src *inputs.SourceError
	if !errors.As(err, &src) || !errors.Is(err, source.ErrLocation) {
		t.Fatalf("Compile of a bad address: %v; want a SourceError of ErrLocation", err)
	}
}
