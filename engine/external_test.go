package engine_test

import (
	"context"
	"errors"
	"testing"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// outside is a resource managed elsewhere, which may have failed.
type outside struct{ failed bool }

func (outside) Watch() resources.WatchSpec { return resources.WatchSpec{} }
func (o outside) Check(context.Context) (resources.Status, error) {
	if o.failed {
		return resources.Status{}, errors.New("failed elsewhere")
	}
	return resources.Status{Desired: true}, nil
}
func (outside) Apply(context.Context, resources.Request) (resources.Change, error) {
	return resources.Change{}, nil
}

// TestExternalVerticesGateButAreNotReported runs a resource requiring
// one outside the manifest: a failed one blocks it, a stable one lets it
// run, and the outside resource's own events are never reported.
func TestExternalVerticesGateButAreNotReported(t *testing.T) {
	for _, tt := range []struct {
		name    string
		failed  bool
		skipped bool
	}{{"failed requirement", true, true}, {"converged requirement", false, false}} {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			opts := graph.Options{External: func(ref string) (graph.External, error) {
				return graph.External{Type: "fake", Name: "elsewhere", Resource: outside{failed: tt.failed}}, nil
			}}
			g, err := graph.LoadEntry(graph.Entry{Type: "fake", Props: resourcetest.YAMLNode(t, "{name: mine, value: '1', require: [fake#elsewhere]}"), File: "cli"}, opts)
			if err != nil {
				t.Fatal(err)
			}
			sum, rec := runOnce(t, g, engine.Options{})
			if len(rec.events) != 1 || rec.events[0].ID() != "fake#mine" {
				t.Fatalf("events %v, want only fake#mine's", rec.events)
			}
			ev := rec.events[0]
			if ev.Skipped != tt.skipped || (tt.skipped && ev.UnmetRequirements[0] != "fake#elsewhere") {
				t.Fatalf("event %+v", ev)
			}
			if ran := w.get("mine") == "1"; ran == tt.skipped || sum.Resources != 1 {
				t.Fatalf("ran %v, summary %+v", ran, sum)
			}
		})
	}
}
