package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/reactive-ccm/ccm/engine/fleet/natsconn"
	"github.com/reactive-ccm/ccm/engine/fleet/release"
	"github.com/reactive-ccm/ccm/engine/fleet/report"
	"github.com/spf13/cobra"
)

func newRolloutCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "rollout",
		Short: "Follow, widen or abort a staged rollout started with bundle push --canary",
	}
	return groupOf(cmd, newRolloutStatusCmd(), newRolloutPromoteCmd(), newRolloutAbortCmd())
}

// rolloutCmd is an objectCmd on the rollout under way of the object.
func rolloutCmd(c *cobra.Command, d time.Duration, run func(context.Context, *cobra.Command, *natsconn.Conn, release.Object, *release.Rollout) error) *cobra.Command {
	return objectCmd(c, d, func(ctx context.Context, cmd *cobra.Command, _ []string, conn *natsconn.Conn, o release.Object) error {
		r, err := o.OpenRollout(ctx)
		if err != nil {
			return err
		}
		return run(ctx, cmd, conn, o, r)
	})
}

func newRolloutStatusCmd() *cobra.Command {
	return rolloutCmd(&cobra.Command{
		Use:   "status obj://BUCKET/KEY",
		Short: "The rollout's revision and share, and the standing of each host of its wave",
		Args:  cobra.ExactArgs(1),
	}, 10*time.Second, func(ctx context.Context, cmd *cobra.Command, c *natsconn.Conn, o release.Object, r *release.Rollout) error {
		w, err := report.ReadWave(ctx, c, o.Name, *r)
		if err != nil {
			return err
		}
		return report.PrintWave(cmd.OutOrStdout(), o.Name, r, w, time.Now())
	})
}

func newRolloutPromoteCmd() *cobra.Command {
	var to string
	var p float64
	cmd := rolloutCmd(&cobra.Command{
		Use:   "promote obj://BUCKET/KEY [--to 50%|all]",
		Short: "Widen the rollout to a larger share of the hosts, or make its revision every host's (all, the default)",
		Args:  cobra.ExactArgs(1),
		PreRunE: func(*cobra.Command, []string) (err error) {
			if p, err = release.ParseShare(to); err != nil {
				return usage(err)
			}
			return nil
		},
	}, 30*time.Second, func(ctx context.Context, cmd *cobra.Command, _ *natsconn.Conn, o release.Object, r *release.Rollout) error {
		if err := o.Widen(ctx, r, p); err != nil {
			return releaseError(err)
		}
		sayWidened(cmd.OutOrStdout(), o, r, p)
		return nil
	})
	cmd.Flags().StringVar(&to, "to", "all", "the share of the hosts that take the revision: a percentage or all")
	return cmd
}

// sayWidened tells the operator that r now goes to p of the hosts.
func sayWidened(w io.Writer, o release.Object, r *release.Rollout, p float64) {
	fmt.Fprintf(w, "%s: revision %d now goes to %s of the hosts\n", o.Name, r.Seq, release.Share(p))
}

func newRolloutAbortCmd() *cobra.Command {
	var key string
	cmd := rolloutCmd(&cobra.Command{
		Use:   "abort obj://BUCKET/KEY [--key KEYFILE]",
		Short: "Send the hosts of the wave back to the bundle the others run (--key signs it again, as hosts never go back to an older signature)",
		Args:  cobra.ExactArgs(1),
	}, 30*time.Second, func(ctx context.Context, cmd *cobra.Command, _ *natsconn.Conn, o release.Object, r *release.Rollout) error {
		if err := o.Abort(ctx, release.KeySigner(key)); err != nil {
			return releaseError(err)
		}
		fmt.Fprintf(cmd.OutOrStdout(), "%s: rollout of revision %d aborted; its hosts go back\n", o.Name, r.Seq)
		return nil
	})
	cmd.Flags().StringVar(&key, "key", "", "ed25519 private key to sign the bundle the hosts go back to (needed when it is signed)")
	return cmd
}
