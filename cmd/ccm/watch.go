package main

import (
	"context"
	"errors"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon"
	"github.com/reactive-ccm/ccm/engine/daemon/eventlog"
	"github.com/reactive-ccm/ccm/engine/daemon/reload"
	"github.com/reactive-ccm/ccm/engine/fleet/report"
	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/internal/buildinfo"
	"github.com/spf13/cobra"
)

// defaultPoll is the interval of polled watches when --poll is not given:
// exec guards and paths inotify refused (the systemd hub polls units
// without a system bus at its own interval).
const defaultPoll = 10 * time.Second

// watch runs the watching daemon (engine/daemon) on g, compiled from
// files, until ctx ends, and prints its session.
func watch(ctx context.Context, cmd *cobra.Command, files []string, g *graph.Graph, opts engine.Options, f runFlags, out *eventlog.Printer, rep *report.Reporter) error {
	c := daemon.Config{Graph: g, Engine: opts, Reporter: rep, Forget: sysFacts.Forget, Version: buildinfo.Version(),
		Poll: f.poll, PollInterval: f.every, Recheck: f.recheck, Health: f.health, Contest: f.contest,
		Metrics: f.metricsAddr, MetricsPerResource: f.metricsPerResource}
	c.Socket, c.SocketRequired = daemonSocket(cmd)
	rem, err := remoteOf(cmd)
	if err != nil {
		return err
	}
	c.Sources = rem.sources
	if c.Registry, err = registryOf(cmd); err != nil {
		return err
	}
	data, err := dataOf(cmd)
	if err != nil {
		return err
	}
	paths, err := manifestPaths(cmd, files)
	if err != nil {
		return err
	}
	c.Inputs = data.Inputs(paths, g)
	c.Load = func(context.Context) (*graph.Graph, reload.Inputs, error) {
		paths, err := manifestPaths(cmd, files)
		if err != nil {
			return nil, reload.Inputs{}, err
		}
		g, err := graph.Load(paths, loadOptions(cmd))
		if err != nil {
			return nil, reload.Inputs{}, err
		}
		return g, data.Inputs(paths, g), nil
	}
	s, err := daemon.Run(ctx, c)
	if bad := (*daemon.BadInput)(nil); errors.As(err, &bad) {
		return usage(bad.Err)
	}
	out.Session(s.Took, s.Reloads, s.State, daemon.StatusLine(s.State))
	return err
}
