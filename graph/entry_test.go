package graph_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

func TestLoadEntry(t *testing.T) {
	external := func(ref string) (graph.External, error) {
		if ref == "thing#elsewhere" || ref == "thing#alias" {
			return graph.External{Type: "thing", Name: "elsewhere", Alias: "alias", Resource: thing{}}, nil
		}
		return graph.External{}, errors.New("not known here")
	}
	t.Run("one resource with its references", func(t *testing.T) {
		e := graph.Entry{Type: "thing", Props: resourcetest.YAMLNode(t, "{name: a, value: x, require: [thing#elsewhere], subscribe: [thing#alias]}"), File: "request"}
		g, err := graph.LoadEntry(e, graph.Options{External: external})
		if err != nil {
			t.Fatal(err)
		}
		if len(g.Vertices) != 2 || g.Vertices[0].ID() != "thing#a" || !g.Vertices[1].External || g.Vertices[0].External {
			t.Fatalf("vertices %v", g.Vertices)
		}
		if len(g.Edges) != 1 || g.Edges[0] != (graph.Edge{From: 1, To: 0, Kind: graph.Subscribe}) {
			t.Fatalf("edges %v: the external vertex is added once, by name or alias", g.Edges)
		}
	})
	t.Run("errors are positioned in the request", func(t *testing.T) {
		e := graph.Entry{Type: "thing", Props: resourcetest.YAMLNode(t, "name: a\nensure: bad\nrequire: [thing#nothere]\n"), File: "request"}
		_, err := graph.LoadEntry(e, graph.Options{External: external})
		if err == nil || !strings.Contains(err.Error(), `request:2:9: thing#a: ensure "bad" is not valid`) {
			t.Fatalf("got %v", err)
		}
		e.Props = resourcetest.YAMLNode(t, "name: a\nrequire: [thing#nothere]\n")
		if _, err = graph.LoadEntry(e, graph.Options{External: external}); err == nil || !strings.Contains(err.Error(), `request:2:11: require "thing#nothere": not known here`) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("unknown type", func(t *testing.T) {
		_, err := graph.LoadEntry(graph.Entry{Type: "nosuch", Props: resourcetest.YAMLNode(t, "{name: a}"), File: "request"}, graph.Options{})
		if err == nil || !strings.Contains(err.Error(), `unknown resource type "nosuch"`) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("no name", func(t *testing.T) {
		_, err := graph.LoadEntry(graph.Entry{Type: "thing", Props: resourcetest.YAMLNode(t, "{value: a}"), File: "request"}, graph.Options{})
		if err == nil || !strings.Contains(err.Error(), "needs a name") {
			t.Fatalf("got %v", err)
		}
	})
}
