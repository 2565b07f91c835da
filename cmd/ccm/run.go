package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon"
	"github.com/reactive-ccm/ccm/engine/daemon/eventlog"
	"github.com/reactive-ccm/ccm/engine/daemon/state"
	"github.com/reactive-ccm/ccm/engine/fleet/report"
	"github.com/reactive-ccm/ccm/graph"
	"github.com/spf13/cobra"
)

// changeFlags are the flags run and apply share.
type changeFlags struct {
	Noop        bool `flag:"noop" help:"report what would change and change nothing"`
	MonitorOnly bool `flag:"monitor-only" help:"run only the health checks: check and change nothing else"`
	Verbose     bool `flag:"verbose,short=v" help:"report every check, also those that found nothing to do"`
	Diff        bool `flag:"diff" help:"show a unified diff of changed file and scaffold content (never for binary or sensitive content)"`
}

// runFlags are the flags of `ccm run`.
type runFlags struct {
	changeFlags
	JSON               bool              `flag:"json" help:"print every event as a JSON line"`
	Watch              bool              `flag:"watch" help:"keep running: watch every resource and repair drift at once"`
	Poll               time.Duration     `flag:"poll" help:"watch by polling at this interval instead of inotify (hosts without inotify, NFS, FUSE)"`
	PollInterval       time.Duration     `flag:"poll-interval" help:"interval of polled watches: exec guards and paths inotify refused (units without a system bus are polled every 2s)"`
	Recheck            time.Duration     `flag:"recheck,default=30m" help:"period of the full re-check in watch mode (0 disables)"`
	Workers            int               `flag:"workers" help:"resources checked at once (default: max(8, 2 x CPUs))"`
	Metrics            string            `flag:"metrics-listen" help:"serve Prometheus metrics at http://ADDR/metrics in watch mode (e.g. 127.0.0.1:9233; off by default)"`
	MetricsPerResource bool              `flag:"metrics-resources" help:"add one series per resource (ccm_resource_standing, and upstream's choria_ccm_* series) to the metrics"`
	Health             time.Duration     `flag:"health-interval,default=1m" help:"in watch mode, how often each health check runs by itself, with jitter (0 disables)"`
	Rollback           bool              `flag:"rollback" help:"undo a new desired state of a file or scaffold that makes a subscriber's health checks fail CRITICAL, and hold the last good state"`
	ContestLimit       int               `flag:"contest-limit,default=5" help:"in watch mode, repairs within --contest-window, each undone within --contest-gap, that mark a resource contested"`
	ContestWindow      time.Duration     `flag:"contest-window,default=1m" help:"window of --contest-limit, and how long a contested resource must be left alone to be calm"`
	ContestGap         time.Duration     `flag:"contest-gap" help:"in watch mode, a repair undone within this time continues a fight; a longer pause starts the count afresh (set it to --contest-window to count every repair)"`
	ContestBackoff     time.Duration     `flag:"contest-backoff,default=30s" help:"first back-off of a contested resource, doubling up to 10m (or 20 times this) while the fight goes on"`
	Timeouts           map[string]string `flag:"timeout" help:"bound each check and apply of a resource type, as TYPE=DURATION (repeatable); a resource's own timeout wins"`
	Report             string            `flag:"report" help:"also publish events and status: nats (subject ccm.events.HOST, bucket CCM_STATUS)"`
	Hostname           string            `flag:"hostname" help:"this host's name in reports (default the host's name)"`
	Heartbeat          time.Duration     `flag:"report-heartbeat" help:"with --report, publish the status at least this often; a host silent for three is stale"`
	// noReport leaves out the summary (apply --no-report).
	noReport bool
}

func newRunCmd() *cobra.Command {
	f := runFlags{PollInterval: defaultPoll, ContestGap: engine.DefaultContestGap, Heartbeat: report.DefaultHeartbeat}
	cmd := &cobra.Command{
		Use:   "run [flags] SOURCE...",
		Short: "Converge the host to the manifests, once or (--watch) continuously",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, files []string) error {
			return runManifests(cmd, files, f)
		},
	}
	fl := cmd.Flags()
	bind(fl, &f)
	addSocketFlag(fl)
	addDataFlags(fl)
	addRegistrationFlag(fl)
	fl.String("register", "", "announce the register_when_stable entries of stable resources (converged, health checks OK) to NATS: jetstream (the --registration stream) or nats (core NATS, fire and forget); withdrawn when they stop being stable")
	return cmd
}

func runManifests(cmd *cobra.Command, files []string, f runFlags) error {
	log, err := setupLogging(cmd)
	if err != nil {
		return err
	}
	if err := checkRunFlags(cmd, f); err != nil {
		return err
	}
	defer closeSources(cmd, log)
	// A one-shot run reads each child manifest when its apply resource
	// runs, as upstream does; watch mode reads those that exist now and
	// reloads when they change or appear.
	children := graph.ChildrenAtRun
	if f.Watch {
		children = graph.ChildrenAtLoad
	}
	g, in, err := loadOrFallBack(cmd, files, children, log)
	if err != nil {
		return err
	}
	log.Debug("manifests compiled", "files", files, "resources", len(g.Vertices), "edges", len(g.Edges))
	timeouts, err := engine.ParseTimeouts(f.Timeouts)
	if err != nil {
		return usage(err)
	}
	// Read only in noop; an unusable default is a warning (state.OpenNamed).
	dir, unusable, err := state.OpenNamed(flagOf(cmd.Flags().GetString, "state-dir"), f.Noop)
	switch {
	case err != nil:
		return usage(fmt.Errorf("--state-dir: %w", err))
	case unusable != nil:
		log.Warn("no state directory; pending refreshes will not survive a restart (set --state-dir)", "error", unusable)
	case dir != nil:
		defer dir.Close()
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	c := daemon.Config{Graph: g, Inputs: in, Poll: f.Poll, PollInterval: f.PollInterval, Recheck: f.Recheck, Health: f.Health,
		Metrics: f.Metrics, MetricsPerResource: f.MetricsPerResource, Contest: engine.ContestPolicy{Limit: f.ContestLimit, Window: f.ContestWindow,
			Gap: f.ContestGap, Backoff: f.ContestBackoff, MaxBackoff: max(10*time.Minute, 20*f.ContestBackoff)}}
	c.Engine = engine.Options{Noop: f.Noop, Watch: f.Watch, Workers: f.Workers, Logger: log, Verbose: f.Verbose, Diff: f.Diff,
		MonitorOnly: f.MonitorOnly, Rollback: f.Rollback, State: dir, StateKey: state.GraphKey(files...), Timeouts: timeouts}
	hooks := fleetHooks(ctx, cmd, f, &c)
	if !f.Watch {
		err := daemon.Once(ctx, c, daemon.Output{Stdout: cmd.OutOrStdout(), Stderr: stderr, Print: printOptions(f), NoSummary: f.noReport}, hooks)
		if failed := (*daemon.Failed)(nil); errors.As(err, &failed) {
			return failure(failed.Err)
		}
		return err
	}
	out := eventlog.NewPrinter(cmd.OutOrStdout(), printOptions(f))
	defer out.Flush()
	c.Engine.Events = out.Event
	if _, err := hooks(log, &c.Engine); err != nil {
		return err
	}
	for _, m := range g.Manifests {
		out.Message(m.PreMessage)
	}
	return watch(ctx, cmd, files, c, out)
}

// fleetHooks has --report's reporter, made into c, hear the events and
// --register's registrations announced; finish tells them how the run
// ended, and has a one-shot run publish what they hold before it exits
// (beforeExit).
func fleetHooks(ctx context.Context, cmd *cobra.Command, f runFlags, c *daemon.Config) daemon.Hooks {
	return func(log *slog.Logger, opts *engine.Options) (func(engine.State), error) {
		rep, err := newReporter(cmd, f, log)
		if err != nil {
			return nil, err
		}
		if c.Reporter = rep; rep != nil {
			events := opts.Events
			opts.Events = func(ev *engine.Event) { events(ev); rep.Event(ev) }
		}
		reg, announcing, err := announceTo(cmd, opts)
		return func(st engine.State) {
			if rep != nil {
				rep.Settled(st)
				beforeExit(ctx, log, rep.Flush, "reporting to NATS failed")
			}
			if announcing {
				beforeExit(ctx, log, reg.Sync, "publishing registrations failed", "stream", reg.Stream())
			}
		}, err
	}
}

// checkRunFlags refuses values and combinations of f that mean nothing.
func checkRunFlags(cmd *cobra.Command, f runFlags) error {
	if f.Poll < 0 || f.PollInterval <= 0 || f.Recheck < 0 || f.Workers < 0 || f.Health < 0 {
		return usage(errors.New("--poll, --recheck, --health-interval and --workers must not be negative, --poll-interval must be positive"))
	}
	if f.MonitorOnly && (f.Noop || f.Watch) {
		return usage(errors.New("--monitor-only runs the health checks once: it cannot be combined with --noop or --watch"))
	}
	if f.Watch && (f.ContestLimit < 1 || f.ContestWindow <= 0 || f.ContestGap <= 0 || f.ContestBackoff <= 0) {
		return usage(errors.New("--contest-limit, --contest-window, --contest-gap and --contest-backoff must be positive"))
	}
	for _, name := range []string{"poll", "poll-interval", "recheck", "health-interval", "contest-limit", "contest-window", "contest-gap", "contest-backoff", "socket", "metrics-listen", "metrics-resources"} {
		if cmd.Flags().Changed(name) && !f.Watch {
			return usage(fmt.Errorf("--%s needs --watch", name))
		}
	}
	return nil
}

// printOptions are the printer's options f asks for.
func printOptions(f runFlags) eventlog.Options {
	return eventlog.Options{JSON: f.JSON, Watch: f.Watch, Verbose: f.Verbose}
}
