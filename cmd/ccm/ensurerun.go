package main

import (
	"os"
	"os/signal"
	"syscall"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/ensure"
	"github.com/reactive-ccm/ccm/engine/daemon/session"
	"github.com/reactive-ccm/ccm/graph"
	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"
)

// ensureOne converges the one resource of type typ that props describe
// (given in from: the command line, a request) through the engine, as
// `ccm run` converges a manifest's, and returns its event. In a session,
// references to other resources resolve to what the session recorded of
// them, and this one's event is recorded there.
func ensureOne(cmd *cobra.Command, typ string, props *yaml.Node, from string) (*engine.Event, error) {
	dir, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	e := graph.Entry{Type: typ, Props: props, File: from, Dir: dir}
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
	opts.External = ensure.References(store)
	g, err := graph.LoadEntry(e, opts)
	if err != nil {
		return nil, usage(err)
	}
	log.Debug("resource compiled", "type", e.Type, "from", e.File, "session", sessionDir(cmd), "references", len(g.Vertices)-1)
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ev, err := ensure.Converge(ctx, g, engine.Options{Noop: boolFlag(cmd, "noop"), Logger: log}, store)
	if err != nil {
		return ev, &exitError{code: exitFailed, err: err}
	}
	return ev, nil
}
