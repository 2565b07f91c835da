package report

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/reactive-ccm/ccm/engine/fleet/natsconn"
	"github.com/reactive-ccm/ccm/engine/fleet/release"
	"github.com/reactive-ccm/ccm/internal/termsafe"
)

// HostView is a host's status as fleet status shows it: judged, and
// grouped by the revisions it applies. Its JSON is the status with its
// standing.
type HostView struct {
	Status
	Standing Standing `json:"standing"`
	// Group names the revisions it applies.
	Group string `json:"-"`
}

// View judges every host against what it should apply (t) at now and
// keeps those f selects.
func View(all []Status, t Targets, now time.Time, f Filter) []HostView {
	var out []HostView
	for _, st := range all {
		s := Judge(st, t, now)
		if f.Keep(st, s) {
			out = append(out, HostView{Status: st, Standing: s, Group: revisions(st.Applied)})
		}
	}
	return out
}

// ReadView reads every host's status and what it should apply, and
// judges them now (View); without a fleet it is ErrNoFleet.
func ReadView(ctx context.Context, c *natsconn.Conn, f Filter) ([]HostView, error) {
	all, err := Statuses(ctx, c)
	if err != nil {
		return nil, err
	}
	return View(all, ReadTargets(ctx, c.JetStream(), all), time.Now(), f), nil
}

// AllHealthy reports whether every host shown is healthy
// (Standing.Healthy): fleet status exits 1 otherwise.
func AllHealthy(hosts []HostView) bool {
	for _, h := range hosts {
		if !h.Standing.Healthy() {
			return false
		}
	}
	return true
}

// PrintJSON writes each host as a JSON line.
func PrintJSON(w io.Writer, hosts []HostView) error {
	enc := json.NewEncoder(w)
	for _, h := range hosts {
		if err := enc.Encode(h); err != nil {
			return err
		}
	}
	return nil
}

// Print writes a summary line, then the hosts grouped by the revisions
// they apply, then what needs a word more: refusals, duplicate names,
// contested resources and who changes them. Times are said as ages at
// now.
func Print(w io.Writer, hosts []HostView, now time.Time) error {
	fmt.Fprintln(w, summaryLine(hosts))
	groups := map[string][]HostView{}
	var names []string
	for _, h := range hosts {
		if _, ok := groups[h.Group]; !ok {
			names = append(names, h.Group)
		}
		groups[h.Group] = append(groups[h.Group], h)
	}
	sort.Strings(names)
	for _, g := range names {
		fmt.Fprintf(w, "\napplying %s (%d):\n", termsafe.OneLine(g), len(groups[g]))
		if err := printHosts(w, groups[g], now); err != nil {
			return err
		}
	}
	printNotes(w, hosts, now)
	return nil
}

func printHosts(w io.Writer, hosts []HostView, now time.Time) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "HOST\tSTATE\tRESOURCES\tFAILED\tCONTESTED\tFETCHED\tAPPLIED\tCONVERGED\tSEEN")
	for _, h := range hosts {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", termsafe.OneLine(h.Host), h.Standing, h.Resources,
			countNames(h.Failed, h.FailedResources), countNames(h.Contested, h.ContestedResources),
			revisions(h.Sources), appliedSince(h.Applied, now), ago(h.LastConverged, now), ago(h.Updated, now))
	}
	return tw.Flush()
}

// printNotes adds a line per refusal of a host that refused what it
// should run, duplicate name and contested writer.
func printNotes(w io.Writer, hosts []HostView, now time.Time) {
	for _, h := range hosts {
		for _, r := range h.Refused {
			if h.Standing == StandingRefused {
				fmt.Fprintln(w, termsafe.OneLine(fmt.Sprintf("%s refused %s@%s %s: %s", h.Host, r.Source, release.ShortDigest(r.Revision), ago(r.Time, now), r.Reason)))
			}
		}
		if h.Duplicate != "" {
			fmt.Fprintln(w, termsafe.OneLine(fmt.Sprintf("%s: two processes report under this name (%s; %s); give each host its own --hostname", h.Host, h.Instance, h.Duplicate)))
		}
		for _, id := range h.ContestedResources {
			if who := h.ContestedWriters[id]; who != "" {
				fmt.Fprintln(w, termsafe.OneLine(fmt.Sprintf("%s: %s is changed by %s", h.Host, id, who)))
			}
		}
	}
}

// summaryLine counts hosts by standing, worst last, and the revisions
// they apply.
func summaryLine(hosts []HostView) string {
	by, revs := map[Standing]int{}, map[string]int{}
	for _, h := range hosts {
		by[h.Standing]++
		revs[h.Group]++
	}
	var parts []string
	for _, s := range []Standing{StandingConverged, StandingConverging, StandingBehind, StandingRefused,
		StandingReload, StandingFailing, StandingUnhealthy, StandingRolledBack, StandingContested,
		StandingDuplicate, StandingStale} {
		if by[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", by[s], s))
		}
	}
	line := fmt.Sprintf("%d hosts", len(hosts))
	if len(parts) > 0 {
		line += ": " + strings.Join(parts, ", ")
	}
	return fmt.Sprintf("%s; %d revision(s) applied", line, len(revs))
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
	return termsafe.OneLine(fmt.Sprintf("%d (%s)", n, strings.Join(shown, ", ")))
}

// revisions lists remote revisions, shortened.
func revisions(srcs []Revision) string {
	if len(srcs) == 0 {
		return "-"
	}
	var parts []string
	for _, s := range srcs {
		rev := s.Source + "@" + release.ShortDigest(s.Revision)
		if s.Cached {
			rev += " (cached)"
		}
		parts = append(parts, rev)
	}
	return termsafe.OneLine(strings.Join(parts, " "))
}

// appliedSince says how long the applied revisions have been applied.
func appliedSince(revs []Revision, now time.Time) string {
	var last time.Time
	for _, r := range revs {
		if r.Since.After(last) {
			last = r.Since
		}
	}
	return ago(last, now)
}

func ago(t, now time.Time) string {
	if t.IsZero() {
		return "never"
	}
	return now.Sub(t).Round(time.Second).String() + " ago"
}

// PrintWave writes how the rollout r of the bundle name stands: a
// summary line, then each host that runs it.
func PrintWave(w io.Writer, name string, r *release.Rollout, hosts []WaveHost, now time.Time) error {
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
	for _, h := range hosts {
		fmt.Fprintf(tw, "%s\t%t\t%s\t%s\t%s\n", termsafe.OneLine(h.Host), h.InWave, h.Standing, revisions(h.Applied), ago(h.Updated, now))
	}
	return tw.Flush()
}
