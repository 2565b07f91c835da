package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/fleet"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// addReportFlags registers --report and --hostname.
func addReportFlags(fl *pflag.FlagSet, f *runFlags) {
	fl.StringVar(&f.report, "report", "", "also publish events and status: nats (subject ccm.events.HOST, bucket CCM_STATUS)")
	fl.StringVar(&f.hostname, "hostname", "", "this host's name in reports (default the host's name)")
	fl.DurationVar(&f.heartbeat, "report-heartbeat", fleet.DefaultHeartbeat, "with --report, publish the status at least this often; a host silent for three is stale")
}

// newReporter returns the reporter --report asks for, or nil.
func newReporter(cmd *cobra.Command, f runFlags, log *slog.Logger) (*fleet.Reporter, error) {
	switch f.report {
	case "":
		return nil, nil
	case "nats":
	default:
		return nil, usage(fmt.Errorf("--report %q: the destination is nats", f.report))
	}
	host := f.hostname
	if host == "" {
		var err error
		if host, err = os.Hostname(); err != nil {
			return nil, usage(fmt.Errorf("--hostname is needed: %w", err))
		}
	}
	rem, err := remoteOf(cmd)
	if err != nil {
		return nil, err
	}
	sources := func() []fleet.Revision {
		var out []fleet.Revision
		for _, st := range rem.sources.InForce() {
			out = append(out, fleet.Revision{Source: st.Source, Revision: st.Revision, Cached: st.Cached})
		}
		return out
	}
	rep, err := fleet.New(fleet.Options{Host: host, NATS: rem.nats, Logger: log, Sources: sources, Heartbeat: f.heartbeat, EventsOnly: f.noop})
	if err != nil {
		return nil, usage(err)
	}
	return rep, nil
}

// reportEvents makes opts' events go to rep too.
func reportEvents(opts *engine.Options, rep *fleet.Reporter) {
	events := opts.Events
	opts.Events = func(ev *engine.Event) {
		events(ev)
		rep.Event(ev)
	}
}

// flushReport publishes what a one-shot run reports before it exits,
// waiting at most 10 seconds for NATS.
func flushReport(ctx context.Context, rep *fleet.Reporter, st engine.State, log *slog.Logger) {
	rep.Settled(st)
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := rep.Flush(ctx); err != nil {
		log.Warn("reporting to NATS failed", "error", err)
	}
}
