package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/session"
	"github.com/reactive-ccm/ccm/graph"
	"github.com/spf13/cobra"
)

// ensureOne converges the one resource e describes through the engine,
// as `ccm run` converges a manifest's, and returns its event. In a
// session, references to resources outside e resolve to what the session
// recorded of them, and e's event is recorded there.
func ensureOne(cmd *cobra.Command, e graph.Entry) (*engine.Event, error) {
	log, err := setupLogging(cmd)
	if err != nil {
		return nil, err
	}
	if err := defaultHiera(cmd); err != nil {
		return nil, err
	}
	var store *session.Store
	if dir := sessionDir(cmd); dir != "" {
		if store, err = openSession(dir); err != nil {
			return nil, usage(err)
		}
	}
	opts := loadOptions(cmd)
	opts.External = sessionReferences(store)
	g, err := graph.LoadEntry(e, opts)
	if err != nil {
		return nil, usage(err)
	}
	log.Debug("resource compiled", "type", e.Type, "from", e.File, "session", sessionDir(cmd), "references", len(g.Vertices)-1)
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var ev *engine.Event
	eng := engine.New(g, engine.Options{Noop: boolFlag(cmd, "noop"), Logger: log, Events: func(got *engine.Event) { ev = got }})
	if _, err := eng.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
		return nil, &exitError{code: exitFailed, err: err}
	}
	if ev == nil {
		return nil, &exitError{code: exitFailed, err: errors.New("interrupted before the resource ran")}
	}
	if store != nil {
		if err := store.Record(ev); err != nil {
			return ev, &exitError{code: exitFailed, err: err}
		}
	}
	return ev, nil
}

// sessionReferences resolves require and subscribe references to the
// resources store recorded.
func sessionReferences(store *session.Store) func(ref string) (graph.External, error) {
	return func(ref string) (graph.External, error) {
		if store == nil {
			return graph.External{}, errNoSession
		}
		ev, err := store.Last(ref)
		if err != nil {
			return graph.External{}, err
		}
		return graph.External{Type: ev.Type, Name: ev.Name, Alias: ev.Alias, Resource: session.Replay(ev)}, nil
	}
}

// failed reports whether ev means the resource is not in its desired
// state: it failed, or was skipped because a requirement failed.
func failed(ev *engine.Event) bool {
	return ev.Failed || len(ev.UnmetRequirements) > 0
}

// errNoSession explains a reference `ccm ensure` cannot resolve.
var errNoSession = fmt.Errorf("not a resource of this command; to refer to an earlier `ccm ensure`, run both in a session (eval \"$(ccm session new)\", or --session DIR)")
