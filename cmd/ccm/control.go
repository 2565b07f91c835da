package main

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/control"
	"github.com/reactive-ccm/ccm/engine/daemon/eventlog"
)

// addSocketFlag registers --socket, on the daemon and on every client.
func addSocketFlag(fl *pflag.FlagSet) {
	fl.String("socket", "", "control socket (default $"+control.PathEnv+", else "+control.DefaultPath+`; "" on run: none)`)
}

// client returns a client of the socket --socket names.
func client(cmd *cobra.Command) *control.Client {
	return control.NewClient(control.Path(flagOf(cmd.Flags().GetString, "socket")))
}

// clientError turns a client's error into ccm's: refusals and a missing
// daemon are failures (exit 1), unknown resources unusable input (2).
func clientError(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, control.ErrRequest) && !errors.Is(err, control.ErrNoDaemon) {
		return usage(err)
	}
	return failure(err)
}

// newControlCmds are the commands that ask or steer a running daemon.
func newControlCmds() []*cobra.Command {
	cmds := []*cobra.Command{newStatusCmd(), newEventsCmd(), newPauseCmd(), newResumeCmd(), newRecheckCmd()}
	for _, c := range cmds {
		addSocketFlag(c.Flags())
	}
	return cmds
}

// newStatusCmd is `ccm status`: without arguments it asks the running
// daemon where every resource stands; with TYPE NAME it shows one thing
// on this host as its type's provider sees it (upstream's `ccm status`).
func newStatusCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "status [TYPE NAME]",
		Aliases: []string{"info"},
		Short:   "Show where every resource of the running daemon stands, or the state of one thing on this host as its type sees it",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 0 && len(args) != 2 {
				return fmt.Errorf("status takes no arguments (the daemon's status) or TYPE NAME, got %d", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 2 {
				return hostStatus(cmd, args[0], args[1], asJSON)
			}
			r, err := client(cmd).Status(cmd.Context())
			if err != nil {
				return clientError(err)
			}
			if asJSON {
				return printValue(cmd, r, false)
			}
			return eventlog.WriteStatus(cmd.OutOrStdout(), r, time.Now())
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	return cmd
}

func newEventsCmd() *cobra.Command {
	var f struct {
		Follow  bool `flag:"follow,short=f" help:"keep printing events as they happen"`
		JSON    bool `flag:"json" help:"print every event as a JSON line"`
		Verbose bool `flag:"verbose,short=v" help:"also show the first check of resources that found nothing to do"`
	}
	cmd := &cobra.Command{
		Use:   "events",
		Short: "Print the daemon's recent events and, with --follow, the live stream",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			out := eventlog.NewPrinter(cmd.OutOrStdout(), eventlog.Options{JSON: f.JSON, Watch: true, Verbose: f.Verbose})
			return clientError(client(cmd).Events(ctx, f.Follow, func(ev *engine.Event) error {
				out.Event(ev)
				return nil
			}))
		},
	}
	bind(cmd.Flags(), &f)
	return cmd
}

// request is a command that asks the daemon one thing (ask) and prints
// its answer, if any.
func request(use, short string, args cobra.PositionalArgs, ask func(cmd *cobra.Command, c *control.Client, args []string) (string, error)) *cobra.Command {
	return &cobra.Command{Use: use, Short: short, Args: args, RunE: func(cmd *cobra.Command, args []string) error {
		said, err := ask(cmd, client(cmd), args)
		if said != "" && err == nil {
			fmt.Fprintln(cmd.OutOrStdout(), said)
		}
		return err
	}}
}

func newPauseCmd() *cobra.Command {
	var req control.PauseRequest
	cmd := request("pause RESOURCE...|--all [--for DURATION]", "Keep the daemon's hands off resources: still checked and drift reported, nothing changed", nil,
		func(cmd *cobra.Command, c *control.Client, refs []string) (string, error) {
			req.Resources, req.SudoUser = refs, os.Getenv("SUDO_USER")
			if !req.Valid() {
				return "", usage(errors.New("name resources (type#name) or give --all, and a --for that is not negative"))
			}
			p, err := c.Pause(cmd.Context(), req)
			what := "every resource"
			if !req.All {
				what = strings.Join(refs, ", ")
			}
			return fmt.Sprintf("paused %s by %s %s", what, p.By, eventlog.Until(p.Until, time.Now())), clientError(err)
		})
	cmd.Flags().BoolVar(&req.All, "all", false, "pause every resource, those a reload adds included")
	cmd.Flags().DurationVar(&req.For, "for", 0, "end the pause by itself after this long (default: until ccm resume)")
	return cmd
}

func newResumeCmd() *cobra.Command {
	var req control.ResumeRequest
	cmd := request("resume RESOURCE...|--all", "End pauses: the resources are checked and repaired at once", nil,
		func(cmd *cobra.Command, c *control.Client, refs []string) (string, error) {
			if req.Resources = refs; !req.Valid() {
				return "", usage(errors.New("name resources (type#name) or give --all"))
			}
			return "resumed; checking now", clientError(c.Resume(cmd.Context(), req))
		})
	cmd.Flags().BoolVar(&req.All, "all", false, "end every pause")
	return cmd
}

func newRecheckCmd() *cobra.Command {
	return request("recheck [RESOURCE]", "Check one resource, or every resource, now (as SIGUSR1 does for all)", cobra.MaximumNArgs(1),
		func(cmd *cobra.Command, c *control.Client, args []string) (string, error) {
			return "", clientError(c.Recheck(cmd.Context(), control.RecheckRequest{Resource: strings.Join(args, "")}))
		})
}
