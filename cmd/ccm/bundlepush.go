package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/reactive-ccm/ccm/engine/fleet/bundle"
	"github.com/reactive-ccm/ccm/engine/fleet/natsconn"
	"github.com/reactive-ccm/ccm/engine/fleet/release"
	"github.com/reactive-ccm/ccm/engine/fleet/source"
	"github.com/reactive-ccm/ccm/graph"
	"github.com/spf13/cobra"
)

func newBundlePushCmd() *cobra.Command {
	var timeout time.Duration
	var keep int
	var force bool
	var canary, auto, key string
	cmd := &cobra.Command{
		Use:   "push FILE obj://BUCKET/KEY",
		Short: "Publish a bundle (and FILE.sig when present) to a NATS object store, refusing what hosts would refuse",
		Args:  cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			loc, err := objectLocation(args[1])
			if err != nil {
				return err
			}
			b := release.Bundle{PushedBy: release.Pusher()}
			if b.Data, err = os.ReadFile(args[0]); err != nil {
				return usage(err)
			}
			b.Signature, err = os.ReadFile(args[0] + bundle.SignatureSuffix)
			if err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
			plan, err := rolloutPlan(canary, auto, key)
			if err != nil {
				return err
			}
			if plan.auto != nil {
				timeout = max(timeout, 30*24*time.Hour)
			}
			if !force {
				if err := checkBundle(cmd, args[0], b); err != nil {
					return usage(fmt.Errorf("%w; hosts would refuse it, so it is not pushed (--force pushes it all the same)", err))
				}
			}
			return onNATS(cmd, timeout, func(ctx context.Context, c *natsconn.Conn) error {
				obs, err := release.Open(ctx, c.JetStream(), loc.Bucket, true)
				if err != nil {
					return err
				}
				if err := notOlder(ctx, obs, loc, b); err != nil && !force {
					return usage(err)
				}
				if plan.percent > 0 {
					return plan.stage(ctx, cmd, c, obs, loc, b, keep)
				}
				info, err := release.Publish(ctx, obs, loc.Key, b, keep)
				if err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "pushed %s: %d bytes, %s, digest %s\n", loc, info.Size, signedBy(b.Signature), info.Digest)
				return nil
			})
		},
	}
	addDataFlags(cmd.Flags())
	cmd.Flags().DurationVar(&timeout, "timeout", 30*time.Second, "give up after this long")
	cmd.Flags().IntVar(&keep, "history", release.DefaultKeep, "revisions of the bundle the store keeps, for ccm bundle rollback")
	cmd.Flags().BoolVar(&force, "force", false, "push even what hosts would refuse (to test that they do)")
	cmd.Flags().StringVar(&canary, "canary", "", "stage the bundle: only this share of the hosts (10%), chosen by a stable hash of their names, takes it; see ccm rollout")
	cmd.Flags().StringVar(&auto, "auto", "", "with --canary, widen by STEP each time every host of the wave applied it and stayed healthy for WAIT (20%,5m); abort when one fails")
	cmd.Flags().StringVar(&key, "key", "", "with --auto, the ed25519 private key to sign the bundle the wave goes back to if it aborts")
	return cmd
}

func objectLocation(raw string) (source.Location, error) {
	loc, err := source.Parse(raw, false)
	if err != nil || loc.Scheme != source.Object {
		return loc, usage(fmt.Errorf("%s: want obj://BUCKET/KEY", raw))
	}
	return loc, nil
}

// checkBundle refuses what hosts would refuse: a signature that is not
// one or signs other bytes, a bad signature under --trust, a tarball that
// does not unpack, a manifest that does not compile (as ccm validate, with
// the same --fact and --hiera flags).
func checkBundle(cmd *cobra.Command, file string, b release.Bundle) error {
	if len(b.Signature) > 0 {
		a, err := bundle.Inspect(b.Signature)
		if err != nil {
			return fmt.Errorf("%s%s: %w", file, bundle.SignatureSuffix, err)
		}
		if sum := sha256.Sum256(b.Data); hex.EncodeToString(sum[:]) != a.Digest {
			return fmt.Errorf("%s%s signs other bytes than %s (sign it again, or remove the stale signature)", file, bundle.SignatureSuffix, file)
		}
	}
	if trust, _ := cmd.Flags().GetString("trust"); trust != "" {
		keys, err := bundle.ReadPublicKeys(trust)
		if err != nil {
			return err
		}
		if _, err := bundle.Verify(b.Data, b.Signature, keys); err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
	}
	tmp, err := os.MkdirTemp("", "ccm-push-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	manifest, err := bundle.Extract(bytes.NewReader(b.Data), filepath.Join(tmp, "bundle"), bundle.Limits{})
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	if _, err := graph.Load([]string{manifest}, loadOptions(cmd)); err != nil {
		return fmt.Errorf("%s: its manifest does not compile: %w", file, err)
	}
	return nil
}

// notOlder refuses a bundle whose signature is older than the one in
// place, or an unsigned bundle over a signed one: hosts that check
// signatures would refuse either.
func notOlder(ctx context.Context, obs jetstream.ObjectStore, loc source.Location, b release.Bundle) error {
	cur, err := obs.GetInfo(ctx, loc.Key)
	if errors.Is(err, jetstream.ErrObjectNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	was, err := bundle.Inspect([]byte(cur.Metadata[release.SignatureMeta]))
	if err != nil {
		return nil
	}
	now, err := bundle.Inspect(b.Signature)
	switch {
	case err != nil:
		return fmt.Errorf("%s holds a signed bundle and this one is not signed; hosts that check signatures would refuse it (ccm bundle sign)", loc)
	case now.Signed.Before(was.Signed):
		return fmt.Errorf("%s holds a bundle signed %s, after this one (signed %s); hosts never go back: use ccm bundle rollback, which signs an older revision again",
			loc, was.Signed.Format(time.RFC3339), now.Signed.Format(time.RFC3339))
	}
	return nil
}

// signedBy describes a signature for the operator.
func signedBy(sig []byte) string {
	a, err := bundle.Inspect(sig)
	switch {
	case len(sig) == 0:
		return "unsigned"
	case err != nil:
		return "with a signature that is not one"
	}
	return fmt.Sprintf("signed by %s at %s", a.Key[:12], a.Signed.Format(time.RFC3339))
}

// stagedPush is a push under --canary, with --auto's plan if any.
type stagedPush struct {
	percent float64
	auto    *autoPlan
}

func rolloutPlan(canary, auto, key string) (stagedPush, error) {
	var p stagedPush
	if canary == "" {
		if auto != "" || key != "" {
			return p, usage(errors.New("--auto and --key go with --canary"))
		}
		return p, nil
	}
	var err error
	if p.percent, err = parsePercent(canary); err != nil {
		return p, err
	}
	if p.percent >= 100 {
		return p, usage(errors.New("--canary: a share below 100%; a push without --canary goes to every host"))
	}
	if auto != "" {
		a, err := parseAuto(auto)
		if err != nil {
			return p, err
		}
		a.key, p.auto = key, &a
	}
	return p, nil
}

// stage starts the rollout of b, then follows --auto's plan.
func (p stagedPush) stage(ctx context.Context, cmd *cobra.Command, c *natsconn.Conn, obs jetstream.ObjectStore, loc source.Location, b release.Bundle, keep int) error {
	r, err := release.Stage(ctx, obs, loc.Key, b, keep, p.percent)
	if err != nil {
		return err
	}
	fmt.Fprintf(cmd.OutOrStdout(), "staged %s: revision %d (%s), %s, to %s of the hosts\n", loc, r.Seq, shortDigest(r.Digest), signedBy(b.Signature), share(r.Percent))
	if p.auto == nil {
		return nil
	}
	return p.auto.run(ctx, c, obs, loc, &r, cmd.OutOrStdout())
}
