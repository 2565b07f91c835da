package graph_test

import (
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// TestTemplatedNames: a resource's name is rendered before anything
// refers to it; one that cannot be rendered, or renders empty, is an
// error at the name.
func TestTemplatedNames(t *testing.T) {
	vars := resourcetest.Vars{"role": "web", "none": ""}
	opts := graph.Options{Templates: func(*graph.Manifest) (resources.Templates, error) { return vars, nil }}
	for _, c := range []struct {
		name, src, want string
	}{
		{"rendered, then referred to", "- thing:\n    - \"{{ role }}-conf\": {}\n    - b: {require: [thing#web-conf]}\n", "thing#web-conf thing#b"},
		{"cannot be rendered", "- thing:\n    - \"{{ nosuch }}\": {}\n", `m.yaml:2:7: thing#{{ nosuch }}: name: unknown name "nosuch"`},
		{"renders empty", "- thing:\n    - \"{{ none }}\": {}\n", "m.yaml:2:7: thing: the name is empty"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := writeManifest(t, "m.yaml", c.src)
			g, err := graph.Load([]string{f}, opts)
			if err != nil {
				if got := strings.ReplaceAll(err.Error(), f, "m.yaml"); got != c.want {
					t.Fatalf("got %q, want %q", got, c.want)
				}
				return
			}
			var ids []string
			for _, v := range g.Vertices {
				ids = append(ids, v.ID())
			}
			if got := strings.Join(ids, " "); got != c.want {
				t.Fatalf("vertices %s, want %s", got, c.want)
			}
		})
	}
}
