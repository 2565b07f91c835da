package eventlog

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/reactive-ccm/ccm/engine/daemon/status"
)

// WriteStatus writes a daemon's report for people (`ccm status`): its
// health, the counts, then one row per resource.
func WriteStatus(w io.Writer, r status.Report, now time.Time) error {
	d := r.Daemon
	fmt.Fprintf(w, "ccm %s, pid %d, up %s; inotify: %d watches, %d polled paths, %d overflows; reloads: %d (%d failed)\n",
		d.Version, d.PID, time.Duration(d.Uptime*float64(time.Second)).Round(time.Second),
		d.Watches, d.Polled, d.Overflows, d.Reloads, d.ReloadFailures)
	fmt.Fprintln(w, CountsLine(r.Counts, d.LastConverged, now))
	if p := r.PausedAll; p != nil {
		fmt.Fprintf(w, "every resource paused by %s %s\n", p.By, Until(p.Until, now))
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "STANDING\tRESOURCE\tLAST CHANGE\tNOTE")
	for _, res := range r.Resources {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", res.Standing, res.ID, lastChange(res.LastChange), note(res, now))
	}
	return tw.Flush()
}

// lastChange is "12:00:01 drift: mode 0600 → 0644", or "-".
func lastChange(c *status.Change) string {
	if c == nil {
		return "-"
	}
	what := Describe(c.Changes)
	if what == "" && c.Refreshed {
		what = "refreshed"
	}
	return fmt.Sprintf("%s %s: %s", c.Time.Local().Format(time.TimeOnly), c.Trigger, what)
}

// note says why a resource is not converged and what happens next.
func note(res status.Resource, now time.Time) string {
	var parts []string
	if p := res.Paused; p != nil {
		parts = append(parts, fmt.Sprintf("paused by %s %s", p.By, Until(p.Until, now)))
	}
	if len(res.Drift) > 0 {
		parts = append(parts, "would repair "+Describe(res.Drift))
	}
	if res.LastError != "" {
		parts = append(parts, res.LastError)
	}
	if res.Writer != "" {
		parts = append(parts, "changed by "+res.Writer)
	}
	if res.NextRetry != nil {
		parts = append(parts, fmt.Sprintf("next try in %s", res.NextRetry.Sub(now).Round(time.Second)))
	}
	return strings.Join(parts, "; ")
}
