package ensure

import (
	"context"
	"os"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/session"
	"github.com/reactive-ccm/ccm/graph"
	"go.yaml.in/yaml/v3"
)

// Request is one resource described outside a manifest (`ccm ensure
// TYPE`'s flags, an api pipe request), to converge as a manifest's would
// be.
type Request struct {
	Type  string
	Props *yaml.Node
	// From names where it was described, in errors: "command line".
	From string
	// Session is the directory of the session store the resource's
	// references resolve in and its event is recorded in; "" for none.
	Session string
	// Load are the options its templates load with.
	Load graph.Options
	// Engine are the engine's options; its Events are One's own.
	Engine engine.Options
}

// BadRequest is a request that cannot be carried out as given: its
// session store cannot be opened, or the resource does not compile.
type BadRequest struct{ Err error }

func (e *BadRequest) Error() string { return e.Err.Error() }
func (e *BadRequest) Unwrap() error { return e.Err }

// One converges r's resource, its relative paths resolved in the working
// directory, and returns its event (Converge).
func One(ctx context.Context, r Request) (*engine.Event, error) {
	dir, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	var store *session.Store
	if r.Session != "" {
		if store, err = session.Open(r.Session); err != nil {
			return nil, &BadRequest{err}
		}
	}
	r.Load.External = References(store)
	g, err := graph.LoadEntry(graph.Entry{Type: r.Type, Props: r.Props, File: r.From, Dir: dir}, r.Load)
	if err != nil {
		return nil, &BadRequest{err}
	}
	if r.Engine.Logger != nil {
		r.Engine.Logger.Debug("resource compiled", "type", r.Type, "from", r.From, "session", r.Session, "references", len(g.Vertices)-1)
	}
	return Converge(ctx, g, r.Engine, store)
}
