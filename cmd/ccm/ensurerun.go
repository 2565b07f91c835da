package main

import (
	"errors"
	"os"
	"os/signal"
	"syscall"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/ensure"
	"github.com/reactive-ccm/ccm/engine/daemon/session"
	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"
)

// ensureOne converges the one resource of type typ that props describe
// (given in from: the command line, a request) through the engine, as
// `ccm run` converges a manifest's, and returns its event (ensure.One).
func ensureOne(cmd *cobra.Command, typ string, props *yaml.Node, from string) (*engine.Event, error) {
	log, err := setupLogging(cmd)
	if err != nil {
		return nil, err
	}
	if err := defaultHiera(cmd); err != nil {
		return nil, err
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ev, err := ensure.One(ctx, ensure.Request{Type: typ, Props: props, From: from, Session: session.Named(flagOf(cmd.Flags().GetString, "session")),
		Load: loadOptions(cmd), Engine: engine.Options{Noop: flagOf(cmd.Flags().GetBool, "noop"), Logger: log}})
	if bad := (*ensure.BadRequest)(nil); errors.As(err, &bad) {
		return nil, usage(bad.Err)
	}
	if err != nil {
		return ev, failure(err)
	}
	return ev, nil
}
