package main

import (
	"context"
	"fmt"
	"time"

	"github.com/reactive-ccm/ccm/engine/fleet/natsconn"
	"github.com/reactive-ccm/ccm/engine/fleet/release"
	"github.com/reactive-ccm/ccm/engine/fleet/report"
	"github.com/spf13/cobra"
)

func newFleetInitCmd() *cobra.Command {
	var lim report.Limits
	var buckets []string
	cmd := natsCmd(&cobra.Command{
		Use:   "init [--bundles BUCKET]...",
		Short: "Create the events stream, the status bucket and the bundle buckets with their limits (run once, as an administrator)",
		Args:  cobra.NoArgs,
	}, 30*time.Second, func(ctx context.Context, cmd *cobra.Command, _ []string, c *natsconn.Conn) error {
		if err := report.Init(ctx, c.JetStream(), lim); err != nil {
			return err
		}
		for _, b := range buckets {
			if _, err := release.Open(ctx, c.JetStream(), b, true); err != nil {
				return err
			}
		}
		fmt.Fprintf(cmd.OutOrStdout(), "ready: stream %s, bucket %s, bundle buckets %v\n", report.Stream, report.Bucket, buckets)
		return nil
	})
	fl := cmd.Flags()
	fl.StringArrayVar(&buckets, "bundles", []string{"ccm"}, "object store bucket for bundles (repeatable)")
	fl.DurationVar(&lim.EventsAge, "events-age", 7*24*time.Hour, "how long events are kept")
	fl.Int64Var(&lim.EventsPerHost, "events-per-host", 100_000, "events kept per host")
	fl.DurationVar(&lim.HostExpiry, "host-expiry", 7*24*time.Hour, "drop the status of a host silent for this long")
	return cmd
}
