package graph_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/graph"
	_ "github.com/reactive-ccm/ccm/resources/apply"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// files writes name → content into a new directory and returns it.
func files(t *testing.T, fs map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	resourcetest.WriteTree(t, dir, fs)
	return dir
}

// applyTree is a manifest applying two children, one of which applies a
// third: data given by an apply resource over a child's own, noop and
// health_check_only handed down, references into a child and between
// children.
var applyTree = map[string]string{
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
        - after: {subscribe: [apply#sub/child.yaml], require: ["thing#q1"]}
`,
	"sub/child.yaml": `
data: {greeting: hi, other: kept}
ccm:
  resources:
    - thing:
        - "{{ Data.greeting }}-{{ Data.other }}": {require: [thing#before, thing#q2]}
`,
	"quiet.yaml":  "ccm: {resources: [{thing: [{q1: {}}]}, {apply: [{deeper.yaml: {}}]}]}\n",
	"deeper.yaml": "ccm: {resources: [{thing: [{q2: {}}]}]}\n",
}

func TestApplyIncludesTheChildManifest(t *testing.T) {
	dir := files(t, applyTree)
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
		{"bad child", map[string]string{
			"m0.yaml": "ccm: {resources: [{apply: [{b.yaml: {}}]}]}\n",
			"b.yaml":  "ccm:\n  resources:\n    - thing:\n        - x: {nosuch: 1}\n",
		}, `b.yaml:4:15: unknown property "nosuch"`},
		{"a URL", map[string]string{"m0.yaml": "ccm: {resources: [{apply: [{'https://x/m.yaml': {}}]}]}\n"}, "must be a local file, not a URL"},
		{"duplicates across manifests", map[string]string{
			"m0.yaml": "ccm: {resources: [{thing: [{x: {}}]}, {apply: [{b.yaml: {}}]}]}\n",
			"b.yaml":  "ccm: {resources: [{thing: [{x: {}}]}]}\n",
		}, "duplicate resource thing#x"},
		{"a child that is a directory", map[string]string{"m0.yaml": "ccm: {resources: [{apply: [{b: {}}]}]}\n", "b/x.yaml": ""},
			"reading manifest: open %DIR%/b: not a regular file: it is a directory"},
		{"a child that is not YAML", map[string]string{"m0.yaml": "ccm: {resources: [{apply: [{b.yaml: {}}]}]}\n", "b.yaml": "ccm: [\n"},
			"b.yaml:1:1: invalid YAML: "},
		{"a child whose message does not render", map[string]string{
			"m0.yaml": "ccm: {resources: [{apply: [{b.yaml: {}}]}]}\n",
			"b.yaml":  "ccm: {pre_message: \"{{ nosuch }}\", resources: [{thing: [{x: {}}]}]}\n",
		}, "%DIR%/b.yaml: message: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := files(t, tt.files)
			_, err := graph.Load([]string{filepath.Join(dir, "m0.yaml")}, graph.Data{}.Options())
			if want := strings.ReplaceAll(tt.want, "%DIR%", dir); err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
		})
		t.Run(tt.name+" read at run time", func(t *testing.T) {
			dir := files(t, tt.files)
			if _, err := expandAll(t, filepath.Join(dir, "m0.yaml")); err == nil || !strings.Contains(err.Error(), strings.ReplaceAll(tt.want, "%DIR%", dir)) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
		})
	}
}

// atRun are options that read child manifests when they run.
func atRun() graph.Options {
	o := graph.Data{}.Options()
	o.Children = graph.ChildrenAtRun
	return o
}

// expandAll loads file with children read at run time, then expands the
// first pending apply resource, as the engine does when it runs, until
// none is pending; it returns the first error, of the load or a child.
func expandAll(t *testing.T, file string) (*graph.Graph, error) {
	t.Helper()
	g, err := graph.Load([]string{file}, atRun())
	for err == nil {
		i := slices.IndexFunc(g.Vertices, func(v *graph.Vertex) bool { return v.Pending != nil })
		if i < 0 {
			return g, nil
		}
		if g.Vertices[i].Pending.Why != nil {
			t.Fatalf("%s: pending at run time for a reason: %v", g.Vertices[i].ID(), g.Vertices[i].Pending.Why)
		}
		g, err = g.Expand(g.Vertices[i].Pending)
	}
	return nil, err
}

// shape describes a graph by its vertices (ID and fingerprint, in order)
// and edges, to compare two graphs.
func shape(g *graph.Graph) string {
	var b strings.Builder
	for _, v := range g.Vertices {
		fmt.Fprintf(&b, "%s %s noop=%v\n", v.ID(), v.Fingerprint, v.Noop)
	}
	for _, e := range g.Edges {
		fmt.Fprintf(&b, "%s -%v-> %s\n", g.Vertices[e.From].ID(), e.Kind, g.Vertices[e.To].ID())
	}
	return b.String()
}

func TestChildrenReadAtRunTimeMakeTheSameGraph(t *testing.T) {
	dir := files(t, applyTree)
	main := filepath.Join(dir, "main.yaml")
	g, err := graph.Load([]string{main}, atRun())
	if err != nil {
		t.Fatal(err)
	}
	var pending []string
	for _, v := range g.Vertices {
		if v.Pending != nil {
			pending = append(pending, v.ID())
		}
	}
	if strings.Join(pending, " ") != "apply#sub/child.yaml apply#quiet.yaml" || len(g.Vertices) != 4 {
		t.Fatalf("pending %v of %d vertices: at run time no child is read with the graph", pending, len(g.Vertices))
	}
	edges := shape(g)
	if !strings.Contains(edges, "apply#quiet.yaml -require-> thing#after") {
		t.Fatalf("a reference into a pending child waits for its apply resource:\n%s", edges)
	}
	expanded, err := expandAll(t, main)
	if err != nil {
		t.Fatal(err)
	}
	atLoad, err := graph.Load([]string{main}, graph.Data{}.Options())
	if err != nil {
		t.Fatal(err)
	}
	if shape(expanded) != shape(atLoad) {
		t.Fatalf("children read at run time:\n%s\nread at load:\n%s", shape(expanded), shape(atLoad))
	}
}

func TestExpandReadsTheChildAsItIsNow(t *testing.T) {
	dir := files(t, map[string]string{
		"main.yaml":  "ccm: {resources: [{apply: [{child.yaml: {}}]}]}\n",
		"child.yaml": "ccm: {resources: [{thing: [{old: {}}]}]}\n",
	})
	g, err := graph.Load([]string{filepath.Join(dir, "main.yaml")}, atRun())
	if err != nil {
		t.Fatal(err)
	}
	p := g.Vertices[0].Pending
	if err := os.Remove(filepath.Join(dir, "child.yaml")); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Expand(p); err == nil || !strings.Contains(err.Error(), "reading manifest: open "+dir+"/child.yaml: no such file") {
		t.Fatalf("a missing child: got %v", err)
	}
	files := map[string]string{"child.yaml": "ccm: {resources: [{thing: [{new: {}}]}]}\n"}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	next, err := g.Expand(p)
	if err != nil {
		t.Fatal(err)
	}
	if ids := next.Vertices[0].ID() + " " + next.Vertices[1].ID(); ids != "thing#new apply#child.yaml" {
		t.Fatalf("vertices %s: the child as it is when its apply resource runs", ids)
	}
	if next.Vertices[1].Fingerprint == g.Vertices[0].Fingerprint || next.Vertices[1].Pending != nil {
		t.Fatal("a loaded apply resource replaces its pending one")
	}
	if len(g.Vertices) != 1 {
		t.Fatal("Expand changed the graph it expanded")
	}
}

func TestValidatingLeavesAMissingChildPending(t *testing.T) {
	dir := files(t, map[string]string{"main.yaml": "ccm: {resources: [{apply: [{gone.yaml: {}}]}, {thing: [{x: {require: [apply#gone.yaml]}}]}]}\n"})
	g, err := graph.Load([]string{filepath.Join(dir, "main.yaml")}, graph.Data{}.Options())
	if err != nil {
		t.Fatal(err)
	}
	p := g.Vertices[0].Pending
	if p == nil || !errors.Is(p.Why, fs.ErrNotExist) {
		t.Fatalf("pending %+v: a child that does not exist yet is read when it runs", p)
	}
}

func TestLoadKeepsParseTreesOnlyForAPendingChild(t *testing.T) {
	dir := files(t, map[string]string{
		"plain.yaml":   "ccm: {resources: [{thing: [{a: {}}]}]}\n",
		"pending.yaml": "ccm: {resources: [{apply: [{child.yaml: {}}]}]}\n",
		"child.yaml":   "ccm: {resources: [{thing: [{b: {}}]}]}\n",
	})
	g, err := graph.Load([]string{filepath.Join(dir, "plain.yaml")}, atRun())
	if err != nil {
		t.Fatal(err)
	}
	// A watching daemon would keep them for good.
	if g.Manifests[0].Resources != nil {
		t.Fatal("a graph with nothing pending kept its manifest's parse tree")
	}
	g, err = graph.Load([]string{filepath.Join(dir, "pending.yaml")}, atRun())
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		// Expanded twice, as a run that retries does: it compiles the
		// manifest again each time.
		next, err := g.Expand(g.Vertices[0].Pending)
		if err != nil || next.Vertices[0].ID() != "thing#b" {
			t.Fatalf("expanded: %v", err)
		}
	}
}
