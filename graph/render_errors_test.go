package graph_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/resources"
)

// TestRenderRefusesAsLoadDoes: what stops a manifest from loading stops
// its render, with the same message at the same position: a missing
// manifest, templates that cannot be made, a resources_jet_file the
// command cannot render or that renders badly.
func TestRenderRefusesAsLoadDoes(t *testing.T) {
	broken := errors.New("the data layer is broken")
	noTemplates := graph.Options{Templates: func(*graph.Manifest) (resources.Templates, error) { return nil, broken }}
	for _, c := range []struct {
		name  string
		files []string
		opts  graph.Options
		want  string
	}{
		{"a missing manifest", nil, graph.Options{}, "no such file or directory"},
		{"templates that cannot be made", []string{"m.yaml", "- thing:\n    - a: {}\n"}, noTemplates, "the data layer is broken"},
		{"resources_jet_file without Jet", []string{"m.yaml", jetManifest, "resources.jet", jetResources}, graph.Options{},
			"m.yaml:11:23: resources_jet_file is not supported by this command"},
		{"resources_jet_file without templates", []string{"m.yaml", jetManifest, "resources.jet", jetResources}, graph.Options{JetResources: graph.JetResources},
			"m.yaml:11:23: resources_jet_file resources.jet: this command loads manifests without templates"},
		{"a missing resources_jet_file", []string{"m.yaml", jetManifest}, linuxWeb.Options(), "m.yaml:11:23: resources_jet_file resources.jet: "},
		{"a Jet file rendering no resources", []string{"m.yaml", jetManifest, "resources.jet", "# none\n"}, linuxWeb.Options(),
			"m.yaml:11:23: resources_jet_file resources.jet: the rendered output is not a non-empty list of resource blocks"},
	} {
		t.Run(c.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "m.yaml")
			if c.files != nil {
				file = writeManifest(t, c.files...)
			}
			_, lerr := graph.Load([]string{file}, c.opts)
			_, rerr := graph.Render(file, c.opts)
			if lerr == nil || rerr == nil {
				t.Fatalf("Load: %v, Render: %v; want both refused", lerr, rerr)
			}
			l, r := strings.ReplaceAll(lerr.Error(), file, "m.yaml"), strings.ReplaceAll(rerr.Error(), file, "m.yaml")
			if !strings.Contains(l, c.want) || !strings.Contains(r, c.want) {
				t.Fatalf("Load: %s\nRender: %s\nwant both to say %q", l, r, c.want)
			}
			if c.files != nil && c.name != "templates that cannot be made" && l != r {
				t.Fatalf("Load: %s\nRender: %s\nwant the same message", l, r)
			}
		})
	}
}

// TestRenderOfAJetFile: the resources a Jet file makes are rendered as
// the manifest's own would be; what cannot be resolved yet is said to
// come from the rendered Jet file.
func TestRenderOfAJetFile(t *testing.T) {
	jet := jetResources + "    - later:\n        text: \"{{ nosuch }}\"\n"
	file := writeManifest(t, "m.yaml", jetManifest, "resources.jet", jet)
	out, r := renderFile(t, file, linuxWeb.Options())
	for _, want := range []string{"- zsh:\n", "- vim:\n", "- git:\n", "text: \"web01\"\n", "port: 2\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("render lacks %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "resources_jet_file") || strings.Contains(out, "[[") {
		t.Errorf("the Jet file is shown, not what it made:\n%s", out)
	}
	if len(r.Unresolved) != 1 || !strings.HasPrefix(r.Unresolved[0], "resources.jet (rendered):") || !strings.Contains(r.Unresolved[0], "nosuch") {
		t.Errorf("unresolved %q; want the one value, from the rendered Jet file", r.Unresolved)
	}
}

// TestControlExpressionsNeedTemplates: a control expression loaded by a
// command without templates is refused at its position, not taken as
// false; a plain true or false needs none.
func TestControlExpressionsNeedTemplates(t *testing.T) {
	if got := loadErr(t, "- thing:\n    - a:\n        control: {if: \"facts.os == 'linux'\"}\n"); got != "m.yaml:3:23: thing#a: control.if: expressions need templates, which this command does not load" {
		t.Fatalf("got %q", got)
	}
	g := mustLoad(t, "- thing:\n    - a:\n        control: {if: false}\n")
	if len(g.Vertices) != 1 {
		t.Fatalf("%d vertices, want the resource with a literal condition", len(g.Vertices))
	}
}
