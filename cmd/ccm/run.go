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
	"github.com/reactive-ccm/ccm/graph"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// runFlags are the flags of `ccm run`.
type runFlags struct {
	noop  bool
	json  bool
	watch bool
	// daemon holds the flags of watch mode (--poll, --recheck,
	// --metrics-listen, --contest-*, …).
	daemon  daemon.Config
	workers int
	verbose bool
	diff    bool
	// monitorOnly runs only the health checks.
	monitorOnly bool
	// rollback undoes changes that break a subscriber's health checks.
	rollback bool
	// stateDir is --state-dir; empty for the default.
	stateDir string
	// timeouts is --timeout TYPE=DURATION, by type.
	timeouts map[string]string
	// noReport leaves out the summary (apply --no-report).
	noReport bool
	// report is where events and status are also published (--report).
	report    string
	hostname  string
	heartbeat time.Duration
}

func newRunCmd() *cobra.Command {
	var f runFlags
	cmd := &cobra.Command{
		Use:   "run [flags] SOURCE...",
		Short: "Converge the host to the manifests, once or (--watch) continuously",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, files []string) error {
			return runManifests(cmd, files, f)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.noop, "noop", false, "report what would change and change nothing")
	fl.BoolVar(&f.json, "json", false, "print every event as a JSON line")
	fl.BoolVar(&f.watch, "watch", false, "keep running: watch every resource and repair drift at once")
	fl.DurationVar(&f.daemon.Poll, "poll", 0, "watch by polling at this interval instead of inotify (hosts without inotify, NFS, FUSE)")
	fl.DurationVar(&f.daemon.PollInterval, "poll-interval", defaultPoll, "interval of polled watches: exec guards and paths inotify refused (units without a system bus are polled every 2s)")
	fl.DurationVar(&f.daemon.Recheck, "recheck", 30*time.Minute, "period of the full re-check in watch mode (0 disables)")
	fl.IntVar(&f.workers, "workers", 0, "resources checked at once (default: max(8, 2 x CPUs))")
	addSocketFlag(fl)
	fl.StringVar(&f.daemon.Metrics, "metrics-listen", "", "serve Prometheus metrics at http://ADDR/metrics in watch mode (e.g. 127.0.0.1:9233; off by default)")
	fl.BoolVar(&f.daemon.MetricsPerResource, "metrics-resources", false, "add one series per resource (ccm_resource_standing, and upstream's choria_ccm_* series) to the metrics")
	addOutputFlags(fl, &f)
	fl.DurationVar(&f.daemon.Health, "health-interval", time.Minute, "in watch mode, how often each health check runs by itself, with jitter (0 disables)")
	fl.BoolVar(&f.monitorOnly, "monitor-only", false, "run only the health checks: check and change nothing else")
	fl.BoolVar(&f.rollback, "rollback", false, "undo a new desired state of a file or scaffold that makes a subscriber's health checks fail CRITICAL, and hold the last good state")
	addStateFlag(fl, &f.stateDir)
	fl.IntVar(&f.daemon.Contest.Limit, "contest-limit", 5, "in watch mode, repairs within --contest-window, each undone within --contest-gap, that mark a resource contested")
	fl.DurationVar(&f.daemon.Contest.Window, "contest-window", time.Minute, "window of --contest-limit, and how long a contested resource must be left alone to be calm")
	fl.DurationVar(&f.daemon.Contest.Gap, "contest-gap", engine.DefaultContestGap, "in watch mode, a repair undone within this time continues a fight; a longer pause starts the count afresh (set it to --contest-window to count every repair)")
	fl.DurationVar(&f.daemon.Contest.Backoff, "contest-backoff", 30*time.Second, "first back-off of a contested resource, doubling up to 10m (or 20 times this) while the fight goes on")
	fl.StringToStringVar(&f.timeouts, "timeout", nil, "bound each check and apply of a resource type, as TYPE=DURATION (repeatable); a resource's own timeout wins")
	addReportFlags(fl, &f)
	addDataFlags(fl)
	addRegistrationFlag(fl, true)
	addRegisterFlag(fl)
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
	f.daemon.Contest.MaxBackoff = max(10*time.Minute, 20*f.daemon.Contest.Backoff)
	defer closeSources(cmd, log)
	// A one-shot run reads each child manifest when its apply resource
	// runs, as upstream does; watch mode reads those that exist now and
	// reloads when they change or appear.
	children := graph.ChildrenAtRun
	if f.watch {
		children = graph.ChildrenAtLoad
	}
	g, in, err := loadOrFallBack(cmd, files, children, log)
	if err != nil {
		return err
	}
	log.Debug("manifests compiled", "files", files, "resources", len(g.Vertices), "edges", len(g.Edges))
	timeouts, err := engine.ParseTimeouts(f.timeouts)
	if err != nil {
		return usage(err)
	}
	// Read only in noop; an unusable default is a warning (state.OpenNamed).
	dir, unusable, err := state.OpenNamed(f.stateDir, f.noop)
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
	c := f.daemon
	c.Graph, c.Inputs = g, in
	c.Engine = engine.Options{Noop: f.noop, Watch: f.watch, Workers: f.workers, Logger: log, Verbose: f.verbose, Diff: f.diff,
		MonitorOnly: f.monitorOnly, Rollback: f.rollback, State: dir, StateKey: state.GraphKey(files...), Timeouts: timeouts}
	hooks := fleetHooks(ctx, cmd, f, &c)
	if !f.watch {
		err := daemon.Once(ctx, c, daemon.Output{Stdout: cmd.OutOrStdout(), Stderr: stderr, Print: printOptions(f), NoSummary: f.noReport}, hooks)
		if failed := (*daemon.Failed)(nil); errors.As(err, &failed) {
			return &exitError{code: exitFailed, err: failed.Err}
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
// ended.
func fleetHooks(ctx context.Context, cmd *cobra.Command, f runFlags, c *daemon.Config) daemon.Hooks {
	return func(log *slog.Logger, opts *engine.Options) (func(engine.State), error) {
		rep, err := newReporter(cmd, f, log)
		if err != nil {
			return nil, err
		}
		if c.Reporter = rep; rep != nil {
			reportEvents(opts, rep)
		}
		reg, announcing, err := announceTo(cmd, opts)
		return func(st engine.State) {
			if rep != nil {
				flushReport(ctx, rep, st, log)
			}
			if announcing {
				syncRegistrations(ctx, reg, log)
			}
		}, err
	}
}

// checkRunFlags refuses values and combinations of f that mean nothing.
func checkRunFlags(cmd *cobra.Command, f runFlags) error {
	d := f.daemon
	if d.Poll < 0 || d.PollInterval <= 0 || d.Recheck < 0 || f.workers < 0 || d.Health < 0 {
		return usage(errors.New("--poll, --recheck, --health-interval and --workers must not be negative, --poll-interval must be positive"))
	}
	if f.monitorOnly && (f.noop || f.watch) {
		return usage(errors.New("--monitor-only runs the health checks once: it cannot be combined with --noop or --watch"))
	}
	if f.watch && (d.Contest.Limit < 1 || d.Contest.Window <= 0 || d.Contest.Gap <= 0 || d.Contest.Backoff <= 0) {
		return usage(errors.New("--contest-limit, --contest-window, --contest-gap and --contest-backoff must be positive"))
	}
	for _, name := range []string{"poll", "poll-interval", "recheck", "health-interval", "contest-limit", "contest-window", "contest-gap", "contest-backoff", "socket", "metrics-listen", "metrics-resources"} {
		if cmd.Flags().Changed(name) && !f.watch {
			return usage(fmt.Errorf("--%s needs --watch", name))
		}
	}
	return nil
}

// addOutputFlags registers the flags that shape the event stream, shared
// by run and apply.
func addOutputFlags(fl *pflag.FlagSet, f *runFlags) {
	fl.BoolVarP(&f.verbose, "verbose", "v", false, "report every check, also those that found nothing to do")
	fl.BoolVar(&f.diff, "diff", false, "show a unified diff of changed file and scaffold content (never for binary or sensitive content)")
}

// printOptions are the printer's options f asks for.
func printOptions(f runFlags) eventlog.Options {
	return eventlog.Options{JSON: f.json, Watch: f.watch, Verbose: f.verbose}
}
