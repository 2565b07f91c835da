package main

import (
	"fmt"
	"log/slog"

	"github.com/reactive-ccm/ccm/engine/fleet/report"
	"github.com/spf13/cobra"
)

// newReporter returns the reporter --report asks for, or nil.
func newReporter(cmd *cobra.Command, f runFlags, log *slog.Logger) (*report.Reporter, error) {
	switch f.Report {
	case "":
		return nil, nil
	case "nats":
	default:
		return nil, usage(fmt.Errorf("--report %q: the destination is nats", f.Report))
	}
	host := hostName(cmd)
	rem, err := remoteOf(cmd)
	if err != nil {
		return nil, err
	}
	sources := func() ([]report.Revision, []report.Refusal) { return report.FromSources(rem.sources.InForce()) }
	rep, err := report.New(report.Options{Host: host, NATS: rem.nats, Logger: log, Sources: sources, Heartbeat: f.Heartbeat, EventsOnly: f.Noop})
	if err != nil {
		return nil, usage(err)
	}
	// The manifests were loaded before the reporter was made.
	applied, _ := sources()
	rep.Applied(applied)
	publish := rep.Refresh
	rem.refused.Store(&publish)
	return rep, nil
}
