package main

import (
	"context"
	"errors"
	"time"

	"github.com/reactive-ccm/ccm/engine/daemon"
	"github.com/reactive-ccm/ccm/engine/daemon/control"
	"github.com/reactive-ccm/ccm/engine/daemon/eventlog"
	"github.com/reactive-ccm/ccm/engine/daemon/reload"
	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/internal/buildinfo"
	"github.com/spf13/cobra"
)

// defaultPoll is the interval of polled watches when --poll is not given:
// exec guards and paths inotify refused (the systemd hub polls units
// without a system bus at its own interval).
const defaultPoll = 10 * time.Second

// watch runs the watching daemon c (engine/daemon), compiled from files,
// until ctx ends, and prints its session.
func watch(ctx context.Context, cmd *cobra.Command, files []string, c daemon.Config, out *eventlog.Printer) error {
	c.Forget, c.Version = sysFacts.Forget, buildinfo.Version()
	c.Socket, c.SocketRequired = control.ServePath(flagOf(cmd.Flags().GetString, "socket"), cmd.Flags().Changed("socket"))
	rem, err := remoteOf(cmd)
	if err != nil {
		return err
	}
	c.Sources = rem.sources
	if c.Registry, err = registryOf(cmd); err != nil {
		return err
	}
	c.Load = func(context.Context) (*graph.Graph, reload.Inputs, error) {
		return compile(cmd, files, graph.ChildrenAtLoad)
	}
	s, err := daemon.Run(ctx, c)
	if bad := (*daemon.BadInput)(nil); errors.As(err, &bad) {
		return usage(bad.Err)
	}
	out.Session(s.Took, s.Reloads, s.State, daemon.StatusLine(s.State))
	return err
}
