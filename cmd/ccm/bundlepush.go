package main

import (
	"context"
	"fmt"
	"time"

	"github.com/reactive-ccm/ccm/engine/fleet/bundle"
	"github.com/reactive-ccm/ccm/engine/fleet/natsconn"
	"github.com/reactive-ccm/ccm/engine/fleet/release"
	"github.com/reactive-ccm/ccm/engine/fleet/report"
	"github.com/reactive-ccm/ccm/engine/fleet/source"
	"github.com/reactive-ccm/ccm/graph"
	"github.com/spf13/cobra"
)

func newBundlePushCmd() *cobra.Command {
	f := struct {
		Timeout time.Duration `flag:"timeout,default=30s" help:"give up after this long"`
		Keep    int           `flag:"history" help:"revisions of the bundle the store keeps, for ccm bundle rollback"`
		Force   bool          `flag:"force" help:"push even what hosts would refuse (to test that they do)"`
		Canary  string        `flag:"canary" help:"stage the bundle: only this share of the hosts (10%), chosen by a stable hash of their names, takes it; see ccm rollout"`
		Auto    string        `flag:"auto" help:"with --canary, widen by STEP each time every host of the wave applied it and stayed healthy for WAIT (20%,5m); abort when one fails"`
		Key     string        `flag:"key" help:"with --auto, the ed25519 private key to sign the bundle the wave goes back to if it aborts"`
	}{Keep: release.DefaultKeep}
	cmd := &cobra.Command{
		Use:   "push FILE obj://BUCKET/KEY",
		Short: "Publish a bundle (and FILE.sig when present) to a NATS object store, refusing what hosts would refuse",
		Args:  cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, err := objectLocation(args[1]); err != nil {
				return err
			}
			b, err := release.ReadBundle(args[0])
			if err != nil {
				return releaseError(err)
			}
			plan, err := release.ParsePlan(f.Canary, f.Auto, f.Key != "")
			if err != nil {
				return usage(err)
			}
			if plan.Auto != nil {
				plan.Auto.Sign = release.KeySigner(f.Key)
				f.Timeout = max(f.Timeout, 30*24*time.Hour)
			}
			if !f.Force {
				if err := checkBundle(cmd, args[0], b); err != nil {
					return usage(fmt.Errorf("%w; hosts would refuse it, so it is not pushed (--force pushes it all the same)", err))
				}
			}
			return onObject(cmd, args[1], f.Timeout, true, func(ctx context.Context, c *natsconn.Conn, o release.Object) error {
				if err := o.NotOlder(ctx, b); err != nil && !f.Force {
					return releaseError(err)
				}
				if plan.Percent > 0 {
					return stage(ctx, cmd, plan, c, o, b, f.Keep)
				}
				info, err := release.Publish(ctx, o.Store, o.Key, b, f.Keep)
				if err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "pushed %s: %d bytes, %s, digest %s\n", o.Name, info.Size, bundle.Describe(b.Signature), info.Digest)
				return nil
			})
		},
	}
	addDataFlags(cmd.Flags())
	bind(cmd.Flags(), &f)
	return cmd
}

func objectLocation(raw string) (source.Location, error) {
	loc, err := source.ParseObject(raw)
	if err != nil {
		return loc, usage(err)
	}
	return loc, nil
}

// checkBundle refuses what hosts would refuse (release.Check), the
// manifest compiled as ccm validate does, with the same --fact and
// --hiera flags.
func checkBundle(cmd *cobra.Command, file string, b release.Bundle) error {
	trust, err := trustKeys(cmd)
	if err != nil {
		return err
	}
	return release.Check(file, b, trust, func(manifest string) error {
		_, err := graph.Load([]string{manifest}, loadOptions(cmd))
		return err
	})
}

// stage starts the rollout of b, then follows --auto's plan.
func stage(ctx context.Context, cmd *cobra.Command, p release.Plan, c *natsconn.Conn, o release.Object, b release.Bundle, keep int) error {
	r, err := release.Stage(ctx, o.Store, o.Key, b, keep, p.Percent)
	if err != nil {
		return err
	}
	fmt.Fprintf(cmd.OutOrStdout(), "staged %s: revision %d (%s), %s, to %s of the hosts\n", o.Name, r.Seq, release.ShortDigest(r.Digest), bundle.Describe(b.Signature), release.Share(r.Percent))
	if p.Auto == nil {
		return nil
	}
	a := *p.Auto
	a.Widened = func(p float64) { sayWidened(cmd.OutOrStdout(), o, &r, p) }
	return report.FollowAuto(ctx, a, c, o, &r)
}
