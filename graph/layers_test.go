package graph_test

import (
	"path/filepath"
	"testing"

	"github.com/reactive-ccm/ccm/graph"
)

// TestIncludedDataUnderTheLayers: a child manifest's data is its own,
// under the data of the apply resource that included it, under the
// --hiera layers; a top-level manifest's is its own under the layers.
func TestIncludedDataUnderTheLayers(t *testing.T) {
	dir := files(t, map[string]string{
		"main.yaml": `
data: {a: main, b: main, c: main}
ccm:
  resources:
    - thing:
        - "top-{{ Data.a }}-{{ Data.b }}-{{ Data.c }}": {}
    - apply:
        - child.yaml: {data: {b: apply, c: apply}}
`,
		"child.yaml": `
data: {a: own, b: own, c: own}
ccm:
  resources:
    - thing:
        - "child-{{ Data.a }}-{{ Data.b }}-{{ Data.c }}": {}
`,
	})
	g, err := graph.Load([]string{filepath.Join(dir, "main.yaml")}, withLayer(t, graph.Data{}, "data: {c: layer}\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"thing#top-main-main-layer": true, "thing#child-own-apply-layer": true}
	for _, v := range g.Vertices {
		delete(want, v.ID())
	}
	if len(want) != 0 {
		t.Fatalf("missing %v; want the child's own data under the apply's under the layer", want)
	}
}
