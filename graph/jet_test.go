package graph_test

import (
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/graph"
)

// jetManifest follows upstream's resources/apply/testdata/jet fixture: a
// deep hierarchy on facts.os and a Jet file looping over data with a
// defaults block.
const jetManifest = `
data:
  packages: [zsh]
hierarchy:
  order: ["os:{{ lookup('facts.os') }}"]
  merge: deep
overrides:
  os:linux:
    packages: [vim, git]
ccm:
  resources_jet_file: resources.jet
`

const jetResources = `
- probe:
    - defaults:
        text: "[[ facts.hostname ]]"
[[ range i, p := data.packages ]]
    - "[[ p ]]":
        port: [[ i ]]
        later: "${ Data.packages[ [[ i ]] ] }"
[[ end ]]
`

func TestJetGeneratesResources(t *testing.T) {
	file := writeManifest(t, "m.yaml", jetManifest, "resources.jet", jetResources)
	g, err := graph.Load([]string{file}, linuxWeb.Options())
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	p := probes(t, g)
	if len(p) != 3 {
		t.Fatalf("generated %d resources, want 3 (zsh, vim, git)", len(p))
	}
	for i, name := range []string{"zsh", "vim", "git"} {
		got := p[name]
		if got == nil || got.Port != i || got.Text != "web01" {
			t.Fatalf("probe %s = %+v, want port %d text web01", name, got, i)
		}
		if later, err := got.later(); err != nil || later != name {
			t.Errorf("probe %s deferred = %q, %v; want %q", name, later, err, name)
		}
	}
}

func TestJetErrors(t *testing.T) {
	tests := []struct{ name, jet, want string }{
		{"jet syntax", "[[ if ]]", "m.yaml:11:23: resources_jet_file resources.jet: jet: template: "},
		{"not yaml", "- probe: [x: : :]\n\t", "m.yaml:11:23: resources_jet_file resources.jet: the rendered resources are not valid YAML"},
		{"empty", "[[ if false ]]- probe: [{x: {}}][[ end ]]", "not a non-empty list"},
		{"generated resource error", "- probe: [{x: {bogus: 1}}]", `m.yaml:11:23: unknown property "bogus"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := writeManifest(t, "m.yaml", jetManifest, "resources.jet", tt.jet)
			_, err := graph.Load([]string{file}, linuxWeb.Options())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Load error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
	t.Run("missing file", func(t *testing.T) {
		file := writeManifest(t, "m.yaml", jetManifest)
		if _, err := graph.Load([]string{file}, linuxWeb.Options()); err == nil || !strings.Contains(err.Error(), "no such file") {
			t.Fatalf("Load error = %v, want a missing-file error", err)
		}
	})
}
