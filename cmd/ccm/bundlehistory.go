package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/reactive-ccm/ccm/engine/fleet/bundle"
	"github.com/reactive-ccm/ccm/engine/fleet/natsconn"
	"github.com/reactive-ccm/ccm/engine/fleet/release"
	"github.com/spf13/cobra"
)

func newBundleHistoryCmd() *cobra.Command {
	var asJSON bool
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "history obj://BUCKET/KEY",
		Short: "List the revisions of a bundle the store keeps: when, by whom, digest, signer; * marks the current one",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			loc, err := objectLocation(args[0])
			if err != nil {
				return err
			}
			return onNATS(cmd, timeout, func(ctx context.Context, c *natsconn.Conn) error {
				obs, err := release.Open(ctx, c.JetStream(), loc.Bucket, false)
				if err != nil {
					return err
				}
				all, err := release.History(ctx, obs, loc.Key)
				if err != nil {
					return err
				}
				if asJSON {
					return json.NewEncoder(cmd.OutOrStdout()).Encode(all)
				}
				return printHistory(cmd.OutOrStdout(), all)
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the revisions as JSON")
	addNATSFlags(cmd.Flags(), &timeout, 10*time.Second)
	return cmd
}

func printHistory(w io.Writer, all []release.Entry) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "REVISION\tPUSHED\tBY\tDIGEST\tSIGNED")
	for _, e := range all {
		mark := ""
		if e.Current {
			mark = " *"
		}
		fmt.Fprintf(tw, "%d%s\t%s\t%s\t%s\t%s\n", e.Seq, mark, e.Pushed.Local().Format(time.DateTime), oneLine(e.PushedBy), shortDigest(e.Digest), signedBy([]byte(e.Signature)))
	}
	return tw.Flush()
}

// shortDigest is enough of an object digest to tell revisions apart.
func shortDigest(d string) string {
	d = strings.TrimPrefix(d, "SHA-256=")
	return d[:min(len(d), 12)]
}

func newBundleRollbackCmd() *cobra.Command {
	var key string
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "rollback obj://BUCKET/KEY [REVISION]",
		Short: "Make an older revision from the history current again (default the one before the current); --key signs it again, so hosts that never go back take it",
		Args:  cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			loc, err := objectLocation(args[0])
			if err != nil {
				return err
			}
			want := ""
			if len(args) == 2 {
				want = args[1]
			}
			return onNATS(cmd, timeout, func(ctx context.Context, c *natsconn.Conn) error {
				obs, err := release.Open(ctx, c.JetStream(), loc.Bucket, false)
				if err != nil {
					return err
				}
				e, b, err := rollbackTo(ctx, obs, loc.Key, want, key)
				if err != nil {
					return err
				}
				info, err := release.Publish(ctx, obs, loc.Key, b, 0)
				if err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "rolled %s back to revision %d: digest %s, %s\n", loc, e.Seq, info.Digest, signedBy(b.Signature))
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&key, "key", "", "sign the revision again with this ed25519 private key (needed for a signed revision)")
	addNATSFlags(cmd.Flags(), &timeout, 30*time.Second)
	return cmd
}

// rollbackTo finds the revision want (a number from the history, a
// digest prefix, or "" for the newest one older than the current that
// differs from it) and returns it as a bundle to publish, signed again
// with keyFile when it was signed.
func rollbackTo(ctx context.Context, obs jetstream.ObjectStore, key, want, keyFile string) (release.Entry, release.Bundle, error) {
	all, err := release.History(ctx, obs, key)
	if err != nil {
		return release.Entry{}, release.Bundle{}, err
	}
	e, ok := pickRevision(all, want)
	if !ok {
		return e, release.Bundle{}, usage(fmt.Errorf("%s: no revision %q in the history (ccm bundle history lists them)", key, want))
	}
	b := release.Bundle{Signature: []byte(e.Signature), PushedBy: fmt.Sprintf("%s (rollback to %d)", release.Pusher(), e.Seq)}
	if b.Data, err = release.Read(ctx, obs, e); err != nil {
		return e, b, err
	}
	switch {
	case keyFile != "":
		priv, err := bundle.ReadPrivateKey(keyFile)
		if err != nil {
			return e, b, usage(err)
		}
		b.Signature = bundle.Sign(b.Data, priv, time.Now())
	case e.Signature != "":
		return e, b, usage(fmt.Errorf("revision %d is signed, and hosts never go back to an older signature: pass --key KEYFILE to sign it again", e.Seq))
	}
	return e, b, nil
}

// pickRevision finds want in all (see rollbackTo).
func pickRevision(all []release.Entry, want string) (release.Entry, bool) {
	cur := -1
	for i, e := range all {
		if e.Current {
			cur = i
		}
	}
	for i := len(all) - 1; i >= 0; i-- {
		e := all[i]
		switch {
		case want == "" && i < cur && e.Digest != all[cur].Digest:
			return e, true
		case want != "" && (strconv.Itoa(e.Seq) == want || (len(want) >= 6 && strings.HasPrefix(strings.TrimPrefix(e.Digest, "SHA-256="), want))):
			return e, true
		}
	}
	return release.Entry{}, false
}
