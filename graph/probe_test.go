package graph_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/resources"
)

// probe is a resource type for these tests: it records its properties and
// touches nothing.
type probe struct {
	Text  string   `yaml:"text"`
	Port  int      `yaml:"port"`
	List  []string `yaml:"list"`
	Later string   `yaml:"later" ccm:"deferred"`
	tmpl  resources.Templates
}

func (p *probe) Watch() resources.WatchSpec { return resources.WatchSpec{} }
func (p *probe) Check(context.Context) (resources.Status, error) {
	return resources.Status{Ensure: "present", Desired: true}, nil
}
func (p *probe) Apply(context.Context, resources.Request) (resources.Change, error) {
	return resources.Change{}, nil
}

// later resolves the deferred property, as a resource does just before it
// runs.
func (p *probe) later() (string, error) { return p.tmpl.String(p.Later) }

func init() {
	resources.Register(resources.Type{Name: "probe", Props: probe{}, New: func(spec *resources.Spec) (resources.Instance, error) {
		p := &probe{tmpl: spec.Templates}
		if err := spec.Decode(p); err != nil {
			return resources.Instance{}, err
		}
		return resources.Instance{Resource: p, Ensure: "present"}, nil
	}})
}

// writeManifest writes files (name → content) into a new directory and
// returns the path of the first name, the manifest.
func writeManifest(t *testing.T, files ...string) string {
	t.Helper()
	dir := t.TempDir()
	for i := 0; i+1 < len(files); i += 2 {
		writeFile(t, filepath.Join(dir, files[i]), files[i+1])
	}
	return filepath.Join(dir, files[0])
}

func writeFile(tb testing.TB, path, body string) {
	tb.Helper()
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// probes loads the manifest and returns its probes by name.
func probes(t *testing.T, g *graph.Graph) map[string]*probe {
	t.Helper()
	out := map[string]*probe{}
	for _, v := range g.Vertices {
		out[v.Name] = v.Resource.(*probe)
	}
	return out
}
