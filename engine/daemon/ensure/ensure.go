package ensure

import (
	"context"
	"errors"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/session"
	"github.com/reactive-ccm/ccm/graph"
)

// References resolves require and subscribe references to the resources
// store recorded, each standing as its last event left it
// (session.Replay); with a nil store every reference is ErrNoSession.
func References(store *session.Store) func(ref string) (graph.External, error) {
	return func(ref string) (graph.External, error) {
		if store == nil {
			return graph.External{}, ErrNoSession
		}
		ev, err := store.Last(ref)
		if err != nil {
			return graph.External{}, err
		}
		return graph.External{Type: ev.Type, Name: ev.Name, Alias: ev.Alias, Resource: session.Replay(ev)}, nil
	}
}

// Converge runs g, the graph of one resource and the recorded ones it
// refers to (graph.LoadEntry with References), through the engine with
// opts and returns the resource's event, recorded in store when store is
// not nil. It blocks until the run ends; a ctx cancelled before the
// resource ran is ErrInterrupted. opts.Events is Converge's own.
func Converge(ctx context.Context, g *graph.Graph, opts engine.Options, store *session.Store) (*engine.Event, error) {
	var ev *engine.Event
	opts.Events = func(got *engine.Event) { ev = got }
	if _, err := engine.New(g, opts).Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
		return nil, err
	}
	if ev == nil {
		return nil, ErrInterrupted
	}
	if store != nil {
		if err := store.Record(ev); err != nil {
			return ev, err
		}
	}
	return ev, nil
}

// Failed reports whether ev means the resource is not in its desired
// state: it failed, or was skipped because a requirement failed.
func Failed(ev *engine.Event) bool {
	return ev.Failed || len(ev.UnmetRequirements) > 0
}
