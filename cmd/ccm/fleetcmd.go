package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/reactive-ccm/ccm/engine/fleet"
	"github.com/reactive-ccm/ccm/engine/natsconn"
	"github.com/spf13/cobra"
)

func newFleetCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "fleet",
		Short: "Watch a fleet of hosts that run with --report nats",
	}
	cmd.AddCommand(newFleetStatusCmd())
	return cmd
}

func newFleetStatusCmd() *cobra.Command {
	var nctx string
	var asJSON bool
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "status",
		Short: "One line per host from the CCM_STATUS bucket; hosts that missed three heartbeats are marked stale",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			log, err := setupLogging(cmd)
			if err != nil {
				return err
			}
			c, err := natsconn.Dial(natsconn.FromEnv(nctx), log)
			if err != nil {
				return usage(err)
			}
			defer c.Close()
			ctx, cancel := context.WithTimeout(cmd.Context(), timeout)
			defer cancel()
			all, err := fleet.Statuses(ctx, c)
			if err != nil {
				return &exitError{code: exitFailed, err: err}
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				for _, st := range all {
					if err := enc.Encode(st); err != nil {
						return err
					}
				}
				return nil
			}
			return printFleet(cmd.OutOrStdout(), all, time.Now())
		},
	}
	cmd.Flags().StringVar(&nctx, "context", "", "NATS context (default $NATS_CONTEXT; else $NATS_URL; else the context CCM)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print each host's status as a JSON line")
	cmd.Flags().DurationVar(&timeout, "timeout", 10*time.Second, "give up after this long")
	return cmd
}

// printFleet writes one line per host.
func printFleet(w io.Writer, all []fleet.Status, now time.Time) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "HOST\tSTATE\tRESOURCES\tFAILED\tCONTESTED\tREVISION\tCONVERGED\tSEEN")
	for _, st := range all {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\n", oneLine(st.Host), hostState(st, now), st.Resources,
			countNames(st.Failed, st.FailedResources), countNames(st.Contested, st.ContestedResources),
			revisions(st.Sources), ago(st.LastConverged, now), ago(st.Updated, now))
	}
	return tw.Flush()
}

// hostState sums a host up in a word.
func hostState(st fleet.Status, now time.Time) string {
	switch {
	case st.Stale(now):
		return "STALE"
	case st.ReloadError != "":
		return "reload-failed"
	case st.Failed+st.Blocked > 0:
		return "failing"
	case st.Contested > 0:
		return "contested"
	case st.Pending > 0:
		return "converging"
	}
	return "converged"
}

// countNames is a count, with the first names when there are any.
func countNames(n int, names []string) string {
	if n == 0 {
		return "0"
	}
	shown := names
	if len(shown) > 2 {
		shown = append(shown[:2:2], "…")
	}
	return oneLine(fmt.Sprintf("%d (%s)", n, strings.Join(shown, ", ")))
}

// revisions lists the remote revisions in force, shortened.
func revisions(srcs []fleet.Revision) string {
	if len(srcs) == 0 {
		return "-"
	}
	var parts []string
	for _, s := range srcs {
		rev := strings.TrimPrefix(s.Revision, "SHA-256=")
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if s.Cached {
			rev += " (cached)"
		}
		parts = append(parts, s.Source+"@"+rev)
	}
	return oneLine(strings.Join(parts, " "))
}

func ago(t, now time.Time) string {
	if t.IsZero() {
		return "never"
	}
	return now.Sub(t).Round(time.Second).String() + " ago"
}
