package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/reactive-ccm/ccm/engine/fleet/release"
	"github.com/reactive-ccm/ccm/engine/fleet/report"
	"github.com/reactive-ccm/ccm/internal/termsafe"
)

// hostView is a host's status as fleet status shows it.
type hostView struct {
	report.Status
	standing report.Standing
	// group names the revisions it applies.
	group string
}

// viewHosts judges every host against what it should apply (targets)
// and keeps those filter selects.
func viewHosts(all []report.Status, t report.Targets, now time.Time, filter report.Filter) []hostView {
	var out []hostView
	for _, st := range all {
		s := report.Judge(st, t, now)
		if filter.Keep(st, s) {
			out = append(out, hostView{Status: st, standing: s, group: revisions(st.Applied)})
		}
	}
	return out
}

// healthy reports whether every host shown is healthy (report.Standing).
func healthy(hosts []hostView) bool {
	for _, h := range hosts {
		if !h.standing.Healthy() {
			return false
		}
	}
	return true
}

// printFleet writes a summary line, then the hosts grouped by the
// revisions they apply, then what needs a word more: refusals, duplicate
// names, contested resources and who changes them.
func printFleet(w io.Writer, hosts []hostView) error {
	now := time.Now()
	fmt.Fprintln(w, summaryLine(hosts))
	groups := map[string][]hostView{}
	var names []string
	for _, h := range hosts {
		if _, ok := groups[h.group]; !ok {
			names = append(names, h.group)
		}
		groups[h.group] = append(groups[h.group], h)
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

func printHosts(w io.Writer, hosts []hostView, now time.Time) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "HOST\tSTATE\tRESOURCES\tFAILED\tCONTESTED\tFETCHED\tAPPLIED\tCONVERGED\tSEEN")
	for _, h := range hosts {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", termsafe.OneLine(h.Host), h.standing, h.Resources,
			countNames(h.Failed, h.FailedResources), countNames(h.Contested, h.ContestedResources),
			revisions(h.Sources), appliedSince(h.Applied, now), ago(h.LastConverged, now), ago(h.Updated, now))
	}
	return tw.Flush()
}

// printNotes adds a line per refusal of a host that refused what it
// should run, duplicate name and contested writer.
func printNotes(w io.Writer, hosts []hostView, now time.Time) {
	for _, h := range hosts {
		for _, r := range h.Refused {
			if h.standing == report.StandingRefused {
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

// summaryLine counts hosts by standing and by the revisions they apply.
func summaryLine(hosts []hostView) string {
	by, revs := map[report.Standing]int{}, map[string]int{}
	for _, h := range hosts {
		by[h.standing]++
		revs[h.group]++
	}
	var parts []string
	for _, s := range []report.Standing{report.StandingConverged, report.StandingConverging, report.StandingBehind, report.StandingRefused,
		report.StandingReload, report.StandingFailing, report.StandingUnhealthy, report.StandingRolledBack, report.StandingContested,
		report.StandingDuplicate, report.StandingStale} {
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
func revisions(srcs []report.Revision) string {
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
func appliedSince(revs []report.Revision, now time.Time) string {
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
