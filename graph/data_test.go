package graph_test

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/graph/hiera"
	"github.com/reactive-ccm/ccm/resources/template"
)

var linuxWeb = graph.Data{
	Facts:   map[string]any{"os": "linux", "role": "web", "hostname": "web01", "host": map[string]any{"info": map[string]any{"platformFamily": "debian"}}},
	Environ: map[string]string{"HOME": "/root"},
}

// withLayer is d's options with one --hiera layer, src, over the
// manifests' data.
func withLayer(t *testing.T, d graph.Data, src string) graph.Options {
	t.Helper()
	layer, err := hiera.Parse("layer.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	d.Layers = []hiera.Source{layer}
	return d.Options()
}

const hieraManifest = `
data:
  port: 80
  packages: [ca-certificates]
  web: {tls: false, workers: 2}
hierarchy:
  order:
    - "os:${ lookup('facts.os') }"
    - "env:${ lookup('facts.env') }"
    - "role:{{ lookup('facts.role') }}"
  merge: MERGE
overrides:
  os:linux:
    packages: [vim]
    web: {workers: 4}
  env:prod:
    port: 1
  role:web:
    port: 8080
    packages: [nginx]
    web: {tls: true}
ccm:
  pre_message: "on ${ Facts.hostname }"
  post_message: "port {{ Data.port }}"
  resources:
    - probe:
        - one:
            text: "${ lookup('data.packages') | join(',') }/${ Data.web.tls }/${ Data.web.workers }/${ Facts.host.info.platformFamily }"
            port: "${ Data.port }"
            list: "${ Data.packages }"
            later: "{{ Data.port }} $${HOME} ${ environ.HOME }"
`

func TestManifestDataAndFacts(t *testing.T) {
	tests := []struct {
		merge, text, list, post string
		port                    int
	}{
		{"deep", "ca-certificates,vim,nginx/true/4/debian", "ca-certificates vim nginx", "port 8080", 8080},
		{"first", "vim//4/debian", "vim", "port 80", 80}, // web replaced wholesale: no tls
	}
	for _, tt := range tests {
		t.Run(tt.merge, func(t *testing.T) {
			file := writeManifest(t, "m.yaml", strings.Replace(hieraManifest, "MERGE", tt.merge, 1))
			g, err := graph.Load([]string{file}, linuxWeb.Options())
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			p := probes(t, g)["one"]
			if p.Text != tt.text || p.Port != tt.port || strings.Join(p.List, " ") != tt.list {
				t.Errorf("probe = text %q port %d list %q; want %q %d %q", p.Text, p.Port, p.List, tt.text, tt.port, tt.list)
			}
			if p.Later != "{{ Data.port }} $${HOME} ${ environ.HOME }" {
				t.Errorf("deferred property was resolved at load: %q", p.Later)
			}
			later, err := p.later()
			if want := strings.Replace(tt.post, "port ", "", 1) + " ${HOME} /root"; err != nil || later != want {
				t.Errorf("deferred property = %q, %v; want %q", later, err, want)
			}
			if m := g.Manifests[0]; m.PreMessage != "on web01" || m.PostMessage != tt.post {
				t.Errorf("messages = %q, %q; want %q, %q", m.PreMessage, m.PostMessage, "on web01", tt.post)
			}
		})
	}
}

func TestFactsLoadedOnlyWhenTemplatesNeedThem(t *testing.T) {
	// lazy is linuxWeb with its facts given by LoadFacts, counting calls.
	lazy := func(calls *atomic.Int32) graph.Data {
		d := linuxWeb
		d.Facts, d.LoadFacts = nil, func() map[string]any {
			calls.Add(1)
			return linuxWeb.Facts
		}
		return d
	}
	t.Run("a manifest without templates never loads them", func(t *testing.T) {
		var calls atomic.Int32
		file := writeManifest(t, "m.yaml", "data: {port: 80}\nccm:\n  pre_message: hello\n  resources:\n    - probe:\n        - one: {text: plain, port: 1}\n")
		if _, err := graph.Load([]string{file}, lazy(&calls).Options()); err != nil {
			t.Fatal(err)
		}
		if n := calls.Load(); n != 0 {
			t.Errorf("facts loaded %d times", n)
		}
	})
	t.Run("templates see the facts loaded as they would the facts given", func(t *testing.T) {
		var calls atomic.Int32
		file := writeManifest(t, "m.yaml", strings.Replace(hieraManifest, "MERGE", "deep", 1))
		g, err := graph.Load([]string{file}, lazy(&calls).Options())
		if err != nil {
			t.Fatal(err)
		}
		given, err := graph.Load([]string{file}, linuxWeb.Options())
		if err != nil {
			t.Fatal(err)
		}
		if calls.Load() == 0 || probes(t, g)["one"].Text != probes(t, given)["one"].Text || g.Vertices[0].Fingerprint != given.Vertices[0].Fingerprint {
			t.Errorf("loaded facts (%d calls) gave text %q and fingerprint %s; given facts %q and %s", calls.Load(),
				probes(t, g)["one"].Text, g.Vertices[0].Fingerprint, probes(t, given)["one"].Text, given.Vertices[0].Fingerprint)
		}
	})
}

func TestManifestTemplated(t *testing.T) {
	tests := []struct {
		name, src string
		want      bool
	}{
		{"plain", "- probe:\n    - one: {text: plain}\n", false},
		{"a property", "- probe:\n    - one: {text: \"${ Facts.os }\"}\n", true},
		{"a name", "- probe:\n    - \"{{ Facts.os }}\": {}\n", true},
		{"data", "data: {x: \"{{ lookup('facts.os') }}\"}\nccm:\n  resources:\n    - probe:\n        - one: {}\n", true},
		{"a message", "ccm:\n  pre_message: \"on ${ Facts.hostname }\"\n  resources:\n    - probe:\n        - one: {}\n", true},
		{"a Jet file", "ccm:\n  resources_jet_file: r.jet\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := graph.ParseManifest(writeManifest(t, "m.yaml", tt.src))
			if err != nil {
				t.Fatal(err)
			}
			if got := m.Templated(template.New(template.Env{})); got != tt.want {
				t.Errorf("Templated() = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestHieraLayerMergesOverManifestData(t *testing.T) {
	file := writeManifest(t, "m.yaml", strings.Replace(hieraManifest, "MERGE", "first", 1))
	g, err := graph.Load([]string{file}, withLayer(t, linuxWeb, "data: {port: 9000, packages: [curl]}\n"))
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	p := probes(t, g)["one"]
	if p.Port != 9000 || !reflect.DeepEqual(p.List, []string{"vim", "curl"}) {
		t.Fatalf("with a layer: port %d list %q; want 9000 [vim curl]", p.Port, p.List)
	}
}

func TestTemplateErrorsArePositioned(t *testing.T) {
	tests := []struct {
		name, manifest, want string
	}{
		{"data", "data:\n  a: \"${ nosuch }\"\nccm: {resources: [{probe: [{x: {}}]}]}\n", "m.yaml:2:6: template ${ nosuch }: unknown name nosuch"},
		{"property", "ccm:\n  resources:\n    - probe:\n        - x:\n            text: \"${ lookup('data.nope') }\"\n", "m.yaml:5:19: text: template ${ lookup('data.nope') }: lookup: no value"},
		{"hierarchy", "hierarchy: {merge: all}\nccm: {resources: [{probe: [{x: {}}]}]}\n", "m.yaml:1:20: hierarchy.merge must be first or deep"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := writeManifest(t, "m.yaml", tt.manifest)
			_, err := graph.Load([]string{file}, linuxWeb.Options())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Load error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestFingerprintFollowsData(t *testing.T) {
	manifest := "data: {port: 1}\nccm: {resources: [{probe: [{a: {port: \"${ Data.port }\"}}, {b: {port: 2}}]}]}\n"
	file := writeManifest(t, "m.yaml", manifest)
	load := func(layer string) map[string]string {
		g, err := graph.Load([]string{file}, withLayer(t, linuxWeb, layer))
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, v := range g.Vertices {
			out[v.Name] = v.Fingerprint
		}
		return out
	}
	before, same, after := load("data: {}"), load("data: {}"), load("data: {port: 3}")
	if before["a"] != same["a"] || before["b"] != same["b"] {
		t.Errorf("fingerprints differ between equal loads")
	}
	if before["a"] == after["a"] {
		t.Errorf("a templated resource kept its fingerprint when its data changed")
	}
	if before["b"] != after["b"] {
		t.Errorf("a resource without templates changed fingerprint when data changed")
	}
}

func TestManifestData(t *testing.T) {
	manifest := writeManifest(t, "m.yaml", strings.Replace(hieraManifest, "MERGE", "deep", 1))
	src, ok, err := graph.ManifestData(manifest)
	if err != nil || !ok {
		t.Fatalf("a manifest: ok=%v, %v", ok, err)
	}
	if src.File != manifest || src.Data == nil || src.Hierarchy == nil || src.Overrides == nil {
		t.Errorf("the manifest's data sections were not read: %+v", src)
	}
	doc := writeManifest(t, "hiera.yaml", "data: {port: 80}\n")
	if _, ok, err := graph.ManifestData(doc); ok || err != nil {
		t.Errorf("a hiera document: ok=%v, %v; want it left to the hiera reader", ok, err)
	}
	if _, _, err := graph.ManifestData(doc + ".absent"); err == nil || !strings.HasPrefix(err.Error(), "hiera: ") {
		t.Errorf("a missing file gave %v", err)
	}
}

// TestLazyOptionsReadTheDataOnceAndFactsOnlyForTemplates: the data is
// read once for every manifest of a load, a read error is the load's,
// and the facts are gathered only for a manifest that holds templates.
func TestLazyOptionsReadTheDataOnceAndFactsOnlyForTemplates(t *testing.T) {
	plain := writeManifest(t, "plain.yaml", "ccm: {resources: [{probe: [{a: {text: hello}}]}]}\n")
	templated := writeManifest(t, "t.yaml", "ccm: {resources: [{probe: [{b: {text: \"{{ lookup('facts.os') }}\"}}]}]}\n")
	var reads atomic.Int32
	gathered := make(chan struct{}, 4)
	opts := func() graph.Options {
		return graph.LazyOptions(func() (graph.Data, error) {
			reads.Add(1)
			// As the host's facts are: gathered once, whoever asks.
			return graph.Data{LoadFacts: sync.OnceValue(func() map[string]any {
				gathered <- struct{}{}
				return map[string]any{"os": "linux"}
			})}, nil
		})
	}
	if _, err := graph.Load([]string{plain}, opts()); err != nil {
		t.Fatal(err)
	}
	if len(gathered) != 0 {
		t.Fatal("facts were gathered for a manifest without templates")
	}
	g, err := graph.Load([]string{plain, templated}, opts())
	if err != nil {
		t.Fatal(err)
	}
	if n := reads.Load(); n != 2 {
		t.Errorf("two loads read the data %d times, want once each", n)
	}
	<-gathered
	if len(gathered) != 0 {
		t.Error("facts were gathered more than once, or for the manifest without templates")
	}
	if got := g.Vertices[1].Name; got != "b" {
		t.Errorf("vertex %q", got)
	}
	bad := fmt.Errorf("bad overlay")
	if _, err := graph.Load([]string{plain}, graph.LazyOptions(func() (graph.Data, error) { return graph.Data{}, bad })); err == nil || !strings.Contains(err.Error(), bad.Error()) {
		t.Errorf("a failed read gave %v", err)
	}
}
