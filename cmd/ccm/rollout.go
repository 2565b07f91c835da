package main

import (
	"context"
	"errors"
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
	"github.com/reactive-ccm/ccm/engine/fleet/report"
	"github.com/reactive-ccm/ccm/engine/fleet/source"
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

// parsePercent reads "10%", "10" or "all".
func parsePercent(s string) (float64, error) {
	if s == "all" {
		return 100, nil
	}
	p, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	if err != nil || p <= 0 || p > 100 {
		return 0, usage(fmt.Errorf("%q: want a share of the hosts, 1%% to 100%%, or all", s))
	}
	return p, nil
}

// onRollout runs f on the rollout of the bundle at raw.
func onRollout(cmd *cobra.Command, raw string, timeout time.Duration, f func(context.Context, *natsconn.Conn, jetstream.ObjectStore, source.Location, *release.Rollout) error) error {
	loc, err := objectLocation(raw)
	if err != nil {
		return err
	}
	return onNATS(cmd, timeout, func(ctx context.Context, c *natsconn.Conn) error {
		obs, err := release.Open(ctx, c.JetStream(), loc.Bucket, false)
		if err != nil {
			return err
		}
		r, err := release.ReadRollout(ctx, obs, loc.Key)
		if err == nil && r == nil {
			err = fmt.Errorf("%s: no rollout under way", loc)
		}
		if err != nil {
			return err
		}
		return f(ctx, c, obs, loc, r)
	})
}

func newRolloutStatusCmd() *cobra.Command {
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "status obj://BUCKET/KEY",
		Short: "The rollout's revision and share, and the standing of each host of its wave",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return onRollout(cmd, args[0], timeout, func(ctx context.Context, c *natsconn.Conn, _ jetstream.ObjectStore, loc source.Location, r *release.Rollout) error {
				w, err := readWave(ctx, c, loc, r)
				if err != nil {
					return err
				}
				return printWave(cmd.OutOrStdout(), loc, r, w)
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
			p, err := parsePercent(to)
			if err != nil {
				return err
			}
			return onRollout(cmd, args[0], timeout, func(ctx context.Context, _ *natsconn.Conn, obs jetstream.ObjectStore, loc source.Location, r *release.Rollout) error {
				if err := widen(ctx, obs, loc, r, p); err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%s: revision %d now goes to %s of the hosts\n", loc, r.Seq, share(p))
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&to, "to", "all", "the share of the hosts that take the revision: a percentage or all")
	addNATSFlags(cmd.Flags(), &timeout, 30*time.Second)
	return cmd
}

func share(p float64) string {
	if p >= 100 {
		return "all"
	}
	return strconv.FormatFloat(p, 'f', -1, 64) + "%"
}

// widen sets the rollout's share to p, promoting it to every host at 100.
func widen(ctx context.Context, obs jetstream.ObjectStore, loc source.Location, r *release.Rollout, p float64) error {
	if p >= 100 {
		return release.Promote(ctx, obs, loc.Key, *r)
	}
	if p < r.Percent {
		return usage(fmt.Errorf("%s goes to %s of the hosts already; rollout abort sends them back", loc, share(r.Percent)))
	}
	r.Percent = p
	return release.WriteRollout(ctx, obs, loc.Key, *r)
}

func newRolloutAbortCmd() *cobra.Command {
	var timeout time.Duration
	var key string
	cmd := &cobra.Command{
		Use:   "abort obj://BUCKET/KEY [--key KEYFILE]",
		Short: "Send the hosts of the wave back to the bundle the others run (--key signs it again, as hosts never go back to an older signature)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return onRollout(cmd, args[0], timeout, func(ctx context.Context, _ *natsconn.Conn, obs jetstream.ObjectStore, loc source.Location, r *release.Rollout) error {
				if err := abort(ctx, obs, loc, key); err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%s: rollout of revision %d aborted; its hosts go back\n", loc, r.Seq)
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&key, "key", "", "ed25519 private key to sign the bundle the hosts go back to (needed when it is signed)")
	addNATSFlags(cmd.Flags(), &timeout, 30*time.Second)
	return cmd
}

// abort ends the rollout. The hosts of the wave go back to the bundle the
// object holds; a signed one is signed again with keyFile first, since
// they accepted a newer signature and never go back to an older one.
func abort(ctx context.Context, obs jetstream.ObjectStore, loc source.Location, keyFile string) error {
	info, err := obs.GetInfo(ctx, loc.Key)
	if err != nil {
		return err
	}
	if info.Metadata[release.SignatureMeta] == "" {
		return release.End(ctx, obs, loc.Key)
	}
	if keyFile == "" {
		return usage(fmt.Errorf("%s is signed, and the hosts of the wave accepted a newer signature: pass --key KEYFILE to sign it again so they go back", loc))
	}
	priv, err := bundle.ReadPrivateKey(keyFile)
	if err != nil {
		return usage(err)
	}
	data, _, err := release.Fetch(ctx, obs, loc.Key, int64(info.Size))
	if err != nil {
		return err
	}
	b := release.Bundle{Data: data, Signature: bundle.Sign(data, priv, time.Now()), PushedBy: release.Pusher() + " (rollout aborted)"}
	_, err = release.Publish(ctx, obs, loc.Key, b, 0)
	return err
}

// waveHost is a host taking part in a rollout's source.
type waveHost struct {
	hostView
	inWave, applied bool
}

// readWave reads the hosts that run the rollout's source.
func readWave(ctx context.Context, c *natsconn.Conn, loc source.Location, r *release.Rollout) ([]waveHost, error) {
	all, err := report.Statuses(ctx, c)
	if err != nil && !errors.Is(err, report.ErrNoFleet) {
		return nil, err
	}
	t := readTargets(ctx, c.JetStream(), all)
	var out []waveHost
	for _, h := range viewHosts(all, t, time.Now(), fleetFilter{}) {
		if a := applied(h.Status, loc.String()); a != "" || h.hasSource(loc.String()) {
			out = append(out, waveHost{hostView: h, inWave: release.InWave(h.Host, *r), applied: a == r.Digest})
		}
	}
	return out, nil
}

func (h hostView) hasSource(src string) bool {
	for _, s := range h.Sources {
		if s.Source == src {
			return true
		}
	}
	return false
}

func printWave(w io.Writer, loc source.Location, r *release.Rollout, hosts []waveHost) error {
	in, done := 0, 0
	for _, h := range hosts {
		if h.inWave {
			in++
			if h.applied {
				done++
			}
		}
	}
	fmt.Fprintf(w, "%s: revision %d (%s) to %s of the hosts since %s: %d of %d hosts in the wave, %d applied it\n",
		loc, r.Seq, shortDigest(r.Digest), share(r.Percent), r.Started.Local().Format(time.DateTime), in, len(hosts), done)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "HOST\tWAVE\tSTATE\tAPPLIED\tSEEN")
	now := time.Now()
	for _, h := range hosts {
		fmt.Fprintf(tw, "%s\t%t\t%s\t%s\t%s\n", oneLine(h.Host), h.inWave, h.standing, revisions(h.Applied), ago(h.Updated, now))
	}
	return tw.Flush()
}
