package graph_test

import (
	"reflect"
	"testing"

	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// reported is a thing that shows its content as a digest in reports, as
// a file does, and whose type redacts its password.
type reported struct{ thing }

func (reported) ReportProperties(props map[string]any) {
	if c, ok := props["content"].(string); ok {
		props["content"] = "digest of " + c
	}
}

func init() {
	resources.Register(resources.Type{Name: "reported",
		New: func(spec *resources.Spec) (resources.Instance, error) {
			p := struct {
				Ensure   string `yaml:"ensure"`
				Content  string `yaml:"content"`
				Password string `yaml:"password"`
			}{Ensure: "present"}
			err := spec.Decode(&p)
			return resources.Instance{Resource: reported{}, Ensure: p.Ensure}, err
		},
		Redact: func(props map[string]any) {
			if _, ok := props["password"]; ok {
				props["password"] = "****"
			}
		},
	})
}

// TestPropertiesAsReported: a report shows the properties as written
// with the name and the type's ensure, the type's secrets redacted, what
// the resource reports otherwise rewritten, and for a sensitive resource
// its templated values hidden after all that, so a reporter's rewrite of
// a secret shows nothing of it either.
func TestPropertiesAsReported(t *testing.T) {
	for _, c := range []struct {
		name, props string
		want        map[string]any
	}{
		{"as written, the ensure given", "{content: hello, password: hunter2}",
			map[string]any{"name": "x", "ensure": "present", "content": "digest of hello", "password": "****"}},
		{"a written ensure kept as written", "{ensure: \"{{ state }}\"}", map[string]any{"name": "x", "ensure": "{{ state }}"}},
		{"sensitive, the reporter's output hidden", "{content: \"{{ token }}\", sensitive: true}",
			map[string]any{"name": "x", "ensure": "present", "content": "[redacted]", "sensitive": true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			opts := graph.Options{Templates: func(*graph.Manifest) (resources.Templates, error) {
				return resourcetest.Vars{"token": "s3cret", "state": "absent"}, nil
			}}
			g, err := graph.Load([]string{writeManifest(t, "m.yaml", "- reported:\n    - x: "+c.props+"\n")}, opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := g.Vertices[0].Properties(); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("properties = %#v, want %#v", got, c.want)
			}
		})
	}
}
