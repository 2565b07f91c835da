package inputs_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/engine/daemon/inputs"
	"github.com/reactive-ccm/ccm/engine/daemon/state"
	"github.com/reactive-ccm/ccm/engine/fleet/source"
	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/graph/facts"
	"go.yaml.in/yaml/v3"
)

// remote is a source set that fetches http:// from a loopback server
// serving layer at /data.yaml, and caches under a temporary state
// directory.
func remote(t *testing.T, layer string) (*source.Set, string) {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/data.yaml" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, layer)
	}))
	t.Cleanup(srv.Close)
	dir := filepath.Join(t.TempDir(), "state")
	s := source.NewSet(t.Context(), source.Options{AllowHTTP: true, Cache: func() (*state.Dir, error) { return state.Open(dir) }})
	t.Cleanup(func() { s.Close() })
	return s, srv.URL + "/data.yaml"
}

// word is a layer's data's word.
func word(t *testing.T, data *yaml.Node) string {
	t.Helper()
	var v struct{ Word string }
	if err := data.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v.Word
}

// TestReadLayer: with sources, a layer is a file or remote data as
// fetched, named by its address; data comes from no object store.
func TestReadLayer(t *testing.T) {
	s, addr := remote(t, "data: {word: remote}\n")
	file := write(t, filepath.Join(t.TempDir(), "layer.yaml"), "data: {word: local}\n")
	for _, c := range []struct {
		name, layer, word, file string
	}{
		{"a file, without sources", file, "local", file},
		{"a file, with sources", file, "local", file},
		{"fetched", addr, "remote", addr},
	} {
		t.Run(c.name, func(t *testing.T) {
			set := s
			if strings.HasSuffix(c.name, "without sources") {
				set = nil
			}
			src, err := inputs.ReadLayer(set, c.layer)
			if err != nil {
				t.Fatal(err)
			}
			if src.File != c.file || word(t, src.Data) != c.word {
				t.Fatalf("layer %s holds %v; want word %s, named %s", src.File, src.Data, c.word, c.file)
			}
		})
	}
	if _, err := inputs.ReadLayer(s, "obj://bucket/data"); !errors.Is(err, source.ErrLocation) {
		t.Fatalf("an object store layer: %v; want ErrLocation", err)
	}
	if _, err := inputs.ReadLayer(nil, addr); err == nil {
		t.Fatal("an address read without sources, as a file, was found")
	}
}

// TestLoadAndInputsWithSources: the sources answer kvGet() and their
// revisions are what a daemon watches of them.
func TestLoadAndInputsWithSources(t *testing.T) {
	s, addr := remote(t, "data: {word: remote}\n")
	d := inputs.Data{Facts: facts.Options{Dirs: []string{}}, Hiera: []string{addr}, Sources: s}
	data, err := d.Load(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if data.KV == nil || len(data.Layers) != 1 || word(t, data.Layers[0].Data) != "remote" {
		t.Fatalf("kv %v, layers %v; want the sources as kv and the fetched layer", data.KV, data.Layers)
	}
	m := write(t, filepath.Join(t.TempDir(), "m.yaml"), "- file: []\n")
	g, err := graph.Load([]string{m}, graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	in := d.Inputs([]string{m}, g)
	if in.Remote == nil || len(in.Remote()) == 0 {
		t.Fatal("the remote layer's revision is not watched")
	}
	for _, f := range in.Files {
		if strings.Contains(f, "127.0.0.1") {
			t.Fatalf("the remote layer is watched as a file: %v", in.Files)
		}
	}
}
