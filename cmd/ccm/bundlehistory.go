package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/reactive-ccm/ccm/engine/fleet/bundle"
	"github.com/reactive-ccm/ccm/engine/fleet/natsconn"
	"github.com/reactive-ccm/ccm/engine/fleet/release"
	"github.com/spf13/cobra"
)

func newBundleHistoryCmd() *cobra.Command {
	var asJSON bool
	cmd := objectCmd(&cobra.Command{
		Use:   "history obj://BUCKET/KEY",
		Short: "List the revisions of a bundle the store keeps: when, by whom, digest, signer; * marks the current one",
		Args:  cobra.ExactArgs(1),
	}, 10*time.Second, func(ctx context.Context, cmd *cobra.Command, _ []string, _ *natsconn.Conn, o release.Object) error {
		all, err := release.History(ctx, o.Store, o.Key)
		if err != nil {
			return err
		}
		if asJSON {
			return json.NewEncoder(cmd.OutOrStdout()).Encode(all)
		}
		return release.PrintHistory(cmd.OutOrStdout(), all)
	})
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the revisions as JSON")
	return cmd
}

func newBundleRollbackCmd() *cobra.Command {
	var key string
	cmd := objectCmd(&cobra.Command{
		Use:   "rollback obj://BUCKET/KEY [REVISION]",
		Short: "Make an older revision from the history current again (default the one before the current); --key signs it again, so hosts that never go back take it",
		Args:  cobra.RangeArgs(1, 2),
	}, 30*time.Second, func(ctx context.Context, cmd *cobra.Command, args []string, _ *natsconn.Conn, o release.Object) error {
		got, err := o.Rollback(ctx, strings.Join(args[1:], ""), release.KeySigner(key))
		if err != nil {
			return releaseError(err)
		}
		fmt.Fprintf(cmd.OutOrStdout(), "rolled %s back to revision %d: digest %s, %s\n", o.Name, got.Entry.Seq, got.Info.Digest, bundle.Describe(got.Bundle.Signature))
		return nil
	})
	cmd.Flags().StringVar(&key, "key", "", "sign the revision again with this ed25519 private key (needed for a signed revision)")
	return cmd
}

// objectCmd makes c an operator's command on the bundle object its first
// argument names, with --context and --timeout (default d): run is
// called with the object (onObject).
func objectCmd(c *cobra.Command, d time.Duration, run func(context.Context, *cobra.Command, []string, *natsconn.Conn, release.Object) error) *cobra.Command {
	var timeout time.Duration
	addNATSFlags(c.Flags(), &timeout, d)
	c.RunE = func(cmd *cobra.Command, args []string) error {
		return onObject(cmd, args[0], timeout, false, func(ctx context.Context, conn *natsconn.Conn, o release.Object) error {
			return run(ctx, cmd, args, conn, o)
		})
	}
	return c
}

// onObject runs f on the bundle object raw names (obj://BUCKET/KEY), its
// bucket created when create is set.
func onObject(cmd *cobra.Command, raw string, timeout time.Duration, create bool, f func(context.Context, *natsconn.Conn, release.Object) error) error {
	loc, err := objectLocation(raw)
	if err != nil {
		return err
	}
	return onNATS(cmd, timeout, func(ctx context.Context, c *natsconn.Conn) error {
		obs, err := release.Open(ctx, c.JetStream(), loc.Bucket, create)
		if err != nil {
			return err
		}
		return f(ctx, c, release.Object{Store: obs, Key: loc.Key, Name: loc.String()})
	})
}

// releaseError makes a change release refuses unusable input (exit 2).
func releaseError(err error) error {
	if _, ok := err.(*exitError); !ok && errors.Is(err, release.ErrRefused) {
		return usage(err)
	}
	return err
}
