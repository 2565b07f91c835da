package main

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/reactive-ccm/ccm/engine/fleet/natsconn"
	"github.com/reactive-ccm/ccm/engine/fleet/release"
	"github.com/reactive-ccm/ccm/engine/fleet/report"
	"github.com/reactive-ccm/ccm/internal/termsafe"
	"github.com/spf13/cobra"
)

func newRolloutCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "rollout",
		Short: "Follow, widen or abort a staged rollout started with bundle push --canary",
	}
	cmd.AddCommand(newRolloutStatusCmd(), newRolloutPromoteCmd(), newRolloutAbortCmd())
	return cmd
}

// onRollout runs f on the rollout of the bundle at raw.
func onRollout(cmd *cobra.Command, raw string, timeout time.Duration, f func(context.Context, *natsconn.Conn, release.Object, *release.Rollout) error) error {
	return onObject(cmd, raw, timeout, false, func(ctx context.Context, c *natsconn.Conn, o release.Object) error {
		r, err := o.OpenRollout(ctx)
		if err != nil {
			return err
		}
		return f(ctx, c, o, r)
	})
}

func newRolloutStatusCmd() *cobra.Command {
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "status obj://BUCKET/KEY",
		Short: "The rollout's revision and share, and the standing of each host of its wave",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return onRollout(cmd, args[0], timeout, func(ctx context.Context, c *natsconn.Conn, o release.Object, r *release.Rollout) error {
				w, err := report.ReadWave(ctx, c, o.Name, *r)
				if err != nil {
					return err
				}
				return printWave(cmd.OutOrStdout(), o.Name, r, w)
			})
		},
	}
	addNATSFlags(cmd.Flags(), &timeout, 10*time.Second)
	return cmd
}

func newRolloutPromoteCmd() *cobra.Command {
	var timeout time.Duration
	var to string
	cmd := &cobra.Command{
		Use:   "promote obj://BUCKET/KEY [--to 50%|all]",
		Short: "Widen the rollout to a larger share of the hosts, or make its revision every host's (all, the default)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := release.ParseShare(to)
			if err != nil {
				return usage(err)
			}
			return onRollout(cmd, args[0], timeout, func(ctx context.Context, _ *natsconn.Conn, o release.Object, r *release.Rollout) error {
				if err := o.Widen(ctx, r, p); err != nil {
					return releaseError(err)
				}
				sayWidened(cmd.OutOrStdout(), o, r, p)
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&to, "to", "all", "the share of the hosts that take the revision: a percentage or all")
	addNATSFlags(cmd.Flags(), &timeout, 30*time.Second)
	return cmd
}

// sayWidened tells the operator that r now goes to p of the hosts.
func sayWidened(w io.Writer, o release.Object, r *release.Rollout, p float64) {
	fmt.Fprintf(w, "%s: revision %d now goes to %s of the hosts\n", o.Name, r.Seq, release.Share(p))
}

func newRolloutAbortCmd() *cobra.Command {
	var timeout time.Duration
	var key string
	cmd := &cobra.Command{
		Use:   "abort obj://BUCKET/KEY [--key KEYFILE]",
		Short: "Send the hosts of the wave back to the bundle the others run (--key signs it again, as hosts never go back to an older signature)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return onRollout(cmd, args[0], timeout, func(ctx context.Context, _ *natsconn.Conn, o release.Object, r *release.Rollout) error {
				if err := o.Abort(ctx, signer(key)); err != nil {
					return releaseError(err)
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%s: rollout of revision %d aborted; its hosts go back\n", o.Name, r.Seq)
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&key, "key", "", "ed25519 private key to sign the bundle the hosts go back to (needed when it is signed)")
	addNATSFlags(cmd.Flags(), &timeout, 30*time.Second)
	return cmd
}

func printWave(w io.Writer, name string, r *release.Rollout, hosts []report.WaveHost) error {
	in, done := 0, 0
	for _, h := range hosts {
		if h.InWave {
			in++
			if h.AppliesRevision {
				done++
			}
		}
	}
	fmt.Fprintf(w, "%s: revision %d (%s) to %s of the hosts since %s: %d of %d hosts in the wave, %d applied it\n",
		name, r.Seq, release.ShortDigest(r.Digest), release.Share(r.Percent), r.Started.Local().Format(time.DateTime), in, len(hosts), done)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "HOST\tWAVE\tSTATE\tAPPLIED\tSEEN")
	now := time.Now()
	for _, h := range hosts {
		fmt.Fprintf(tw, "%s\t%t\t%s\t%s\t%s\n", termsafe.OneLine(h.Host), h.InWave, h.Standing, revisions(h.Applied), ago(h.Updated, now))
	}
	return tw.Flush()
}
