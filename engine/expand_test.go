package engine_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/graph"
)

// loadAtRun compiles manifest in dir with child manifests read when
// their apply resources run, as ccm run does.
func loadAtRun(t *testing.T, dir, manifest string) *graph.Graph {
	t.Helper()
	file := filepath.Join(dir, "manifest.yaml")
	if err := os.WriteFile(file, []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := graph.Load([]string{file}, graph.Options{Children: graph.ChildrenAtRun})
	if err != nil {
		t.Fatalf("loading manifest: %v", err)
	}
	return g
}

// TestChildManifestReadWhenItsApplyRuns: the child manifest is read when
// its apply resource runs, so a resource written before it can make it;
// its resources run where the apply is written, before what comes after.
func TestChildManifestReadWhenItsApplyRuns(t *testing.T) {
	w := newWorld(t)
	dir := t.TempDir()
	child := filepath.Join(dir, "child.yaml")
	g := loadAtRun(t, dir, `
- fake:
    - before: {value: "1"}
- apply:
    - child.yaml: {}
- fake:
    - after: {value: "1"}
`)
	w.checking = func(name string) {
		if name == "before" {
			// What a resource written first does: make the child.
			if err := os.WriteFile(child, []byte("- fake:\n    - inner: {value: \"1\"}\n"), 0o644); err != nil {
				panic(err)
			}
		}
	}
	sum, rec := runOnce(t, g, engine.Options{Workers: 4})
	if got := w.order(); !slices.Equal(got, []string{"before", "inner", "after"}) {
		t.Fatalf("applied %v, want the child's resource where its apply is written", got)
	}
	if ev := rec.byID()["fake#inner"]; ev == nil || !ev.Changed {
		t.Fatalf("inner's event: %+v", ev)
	}
	if !sum.OK() {
		t.Fatalf("summary %+v", sum)
	}
}

// TestChildManifestMissingFailsItsApply: a child that cannot be read
// fails its apply resource, and the run goes on.
func TestChildManifestMissingFailsItsApply(t *testing.T) {
	w := newWorld(t)
	g := loadAtRun(t, t.TempDir(), `
- apply:
    - missing.yaml: {}
- fake:
    - after: {value: "1"}
`)
	sum, rec := runOnce(t, g, engine.Options{})
	if ev := rec.byID()["apply#missing.yaml"]; ev == nil || !ev.Failed {
		t.Fatalf("apply's event: %+v", ev)
	}
	if sum.Failed != 1 || w.get("after") != "1" {
		t.Fatalf("summary %+v, after %q", sum, w.get("after"))
	}
}
