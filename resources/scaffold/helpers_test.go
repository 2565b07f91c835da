package scaffold

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// testVars is a template environment with facts and data, as the graph
// gives.
var testVars = resourcetest.Vars{
	"facts": map[string]any{"host": "web01"},
	"data":  map[string]any{"name": "shop", "port": 8080},
}

// readTree returns every file under dir (relative path → content); nil
// when dir does not exist.
func readTree(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = string(b)
		return err
	})
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// layout is a manifest directory holding a template source, and a target.
type layout struct {
	dir, source, target string
}

func newLayout(t testing.TB, templates map[string]string) layout {
	t.Helper()
	dir := t.TempDir()
	l := layout{dir: dir, source: filepath.Join(dir, "templates"), target: filepath.Join(dir, "etc", "app")}
	if err := os.MkdirAll(l.source, 0o755); err != nil {
		t.Fatal(err)
	}
	resourcetest.WriteTree(t, l.source, templates)
	return l
}

// build makes the scaffold for l with a relative source and props.
func (l layout) build(t testing.TB, props string) *scaffold {
	t.Helper()
	inst, err := resourcetest.BuildWith(t, "scaffold", l.target, "source: templates\n"+props, l.dir, testVars)
	if err != nil {
		t.Fatalf("building scaffold#%s: %v", l.target, err)
	}
	return inst.Resource.(*scaffold)
}
