package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/reactive-ccm/ccm/engine/fleet/natsconn"
	"github.com/reactive-ccm/ccm/engine/fleet/report"
	"github.com/spf13/cobra"
)

func newFleetCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "fleet",
		Short: "Set up and watch a fleet of hosts that run with --report nats",
	}
	return groupOf(cmd, newFleetStatusCmd(), newFleetForgetCmd(), newFleetInitCmd())
}

func newFleetStatusCmd() *cobra.Command {
	var asJSON bool
	var filter report.Filter
	cmd := natsCmd(&cobra.Command{
		Use:   "status",
		Short: "A summary, then the hosts grouped by the revision they apply; exit 1 when any shown host is stale, failing, refused or behind",
		Args:  cobra.NoArgs,
	}, 10*time.Second, func(ctx context.Context, cmd *cobra.Command, _ []string, c *natsconn.Conn) error {
		hosts, err := report.ReadView(ctx, c, filter)
		if err != nil {
			return err
		}
		if asJSON {
			err = report.PrintJSON(cmd.OutOrStdout(), hosts)
		} else {
			err = report.Print(cmd.OutOrStdout(), hosts, time.Now())
		}
		if err == nil && !report.AllHealthy(hosts) {
			err = &exitError{code: exitFailed}
		}
		return err
	})
	fl := cmd.Flags()
	fl.BoolVar(&asJSON, "json", false, "print each host's status, with its standing, as a JSON line")
	fl.StringVar(&filter.Revision, "revision", "", "only hosts applying a revision starting with this")
	fl.StringVar((*string)(&filter.Standing), "standing", "", "only hosts of this standing (converged, behind, refused, failing, …)")
	fl.BoolVar(&filter.Stale, "stale", false, "only hosts that missed three heartbeats")
	return cmd
}

func newFleetForgetCmd() *cobra.Command {
	return natsCmd(&cobra.Command{
		Use:   "forget HOST...",
		Short: "Remove hosts that are gone from the fleet's status",
		Args:  cobra.MinimumNArgs(1),
	}, 10*time.Second, func(ctx context.Context, cmd *cobra.Command, hosts []string, c *natsconn.Conn) error {
		for _, h := range hosts {
			if err := report.Forget(ctx, c, h); err != nil {
				if errors.Is(err, report.ErrHostName) {
					return usage(err)
				}
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "forgot %s\n", h)
		}
		return nil
	})
}
