package graph_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/graph"
	_ "github.com/reactive-ccm/ccm/resources/apply"
)

// files writes name → content into a new directory and returns it.
func files(t *testing.T, fs map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range fs {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestApplyIncludesTheChildManifest(t *testing.T) {
	dir := files(t, map[string]string{
		"main.yaml": `
ccm:
  resources:
    - thing:
        - before: {}
    - apply:
        - sub/child.yaml:
            data: {greeting: hello}
        - quiet.yaml: {noop: true, health_check_only: true}
    - thing:
        - after: {subscribe: [apply#sub/child.yaml]}
`,
		"sub/child.yaml": `
data: {greeting: hi, other: kept}
ccm:
  resources:
    - thing:
        - "{{ Data.greeting }}-{{ Data.other }}": {require: [thing#before]}
`,
		"quiet.yaml":  "ccm: {resources: [{thing: [{q1: {}}]}, {apply: [{deeper.yaml: {}}]}]}\n",
		"deeper.yaml": "ccm: {resources: [{thing: [{q2: {}}]}]}\n",
	})
	g, err := graph.Load([]string{filepath.Join(dir, "main.yaml")}, graph.Data{}.Options())
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]*graph.Vertex{}
	var ids []string
	for _, v := range g.Vertices {
		byID[v.ID()] = v
		ids = append(ids, v.ID())
	}
	want := "thing#before thing#hello-kept apply#sub/child.yaml thing#q1 thing#q2 apply#deeper.yaml apply#quiet.yaml thing#after"
	if strings.Join(ids, " ") != want {
		t.Fatalf("vertices %v, want %s: a child's resources where its apply resource is written, data merged over its own", ids, want)
	}
	edges := map[string]graph.EdgeKind{}
	for _, e := range g.Edges {
		edges[g.Vertices[e.From].ID()+" -> "+g.Vertices[e.To].ID()] = e.Kind
	}
	for edge, kind := range map[string]graph.EdgeKind{
		"thing#hello-kept -> apply#sub/child.yaml": graph.Subscribe,
		"thing#before -> thing#hello-kept":         graph.Require,
		"apply#sub/child.yaml -> thing#after":      graph.Subscribe,
		"thing#q2 -> apply#deeper.yaml":            graph.Subscribe,
		"apply#deeper.yaml -> apply#quiet.yaml":    graph.Subscribe,
	} {
		if got, ok := edges[edge]; !ok || got != kind {
			t.Errorf("edge %s: got %v (present %v), want %v", edge, got, ok, kind)
		}
	}
	for id, noop := range map[string]bool{"thing#before": false, "thing#hello-kept": false, "thing#q1": true, "thing#q2": true, "apply#quiet.yaml": true, "apply#sub/child.yaml": false} {
		if byID[id].Noop != noop {
			t.Errorf("%s: noop %v, want %v", id, byID[id].Noop, noop)
		}
		if only := byID[id].HealthCheckOnly; only != (id == "thing#q1" || id == "thing#q2" || id == "apply#deeper.yaml") {
			t.Errorf("%s: health_check_only %v", id, only)
		}
	}
	if len(g.Manifests) != 4 {
		t.Errorf("%d manifests, want the 4 files, so watch mode watches every one", len(g.Manifests))
	}
}

func TestApplyErrors(t *testing.T) {
	deep := map[string]string{}
	for i := 0; i < 12; i++ {
		deep[fmt.Sprintf("m%d.yaml", i)] = fmt.Sprintf("ccm: {resources: [{apply: [{m%d.yaml: {}}]}]}\n", i+1)
	}
	deep["m12.yaml"] = "ccm: {resources: [{thing: [{x: {}}]}]}\n"
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"applies itself", map[string]string{"m0.yaml": "ccm: {resources: [{apply: [{m0.yaml: {}}]}]}\n"}, "m0.yaml applies itself: "},
		{"applies itself through another", map[string]string{
			"m0.yaml": "ccm: {resources: [{apply: [{b.yaml: {}}]}]}\n",
			"b.yaml":  "ccm: {resources: [{apply: [{m0.yaml: {}}]}]}\n",
		}, "b.yaml -> "},
		{"too deep", deep, "more than 10 levels deep"},
		{"allow_apply false", map[string]string{
			"m0.yaml": "ccm: {resources: [{apply: [{b.yaml: {allow_apply: false}}]}]}\n",
			"b.yaml":  "ccm: {resources: [{apply: [{c.yaml: {}}]}]}\n",
			"c.yaml":  "ccm: {resources: [{thing: [{x: {}}]}]}\n",
		}, "may not apply other manifests: it is applied with allow_apply: false"},
		{"missing child", map[string]string{"m0.yaml": "ccm: {resources: [{apply: [{gone.yaml: {}}]}]}\n"}, "apply#gone.yaml: reading manifest: open "},
		{"bad child", map[string]string{
			"m0.yaml": "ccm: {resources: [{apply: [{b.yaml: {}}]}]}\n",
			"b.yaml":  "ccm:\n  resources:\n    - thing:\n        - x: {nosuch: 1}\n",
		}, `b.yaml:4:15: unknown property "nosuch"`},
		{"a URL", map[string]string{"m0.yaml": "ccm: {resources: [{apply: [{'https://x/m.yaml': {}}]}]}\n"}, "must be a local file, not a URL"},
		{"duplicates across manifests", map[string]string{
			"m0.yaml": "ccm: {resources: [{thing: [{x: {}}]}, {apply: [{b.yaml: {}}]}]}\n",
			"b.yaml":  "ccm: {resources: [{thing: [{x: {}}]}]}\n",
		}, "duplicate resource thing#x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := files(t, tt.files)
			_, err := graph.Load([]string{filepath.Join(dir, "m0.yaml")}, graph.Data{}.Options())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
		})
	}
}
