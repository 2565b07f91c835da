package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/resources"
)

// printer writes the events the engine emits, for people (one line per
// resource that changed, failed, was skipped or changed standing; every
// check with --verbose) or as JSON lines. In watch mode each human line
// starts with the time, in the format log lines use; under journald the
// journal stamps lines instead and each line carries its priority.
type printer struct {
	mu      sync.Mutex
	w       io.Writer
	json    bool
	watch   bool
	verbose bool
	journal bool
	enc     *json.Encoder
	tally   tally
}

func newPrinter(w io.Writer, f runFlags) *printer {
	return &printer{w: w, json: f.json, watch: f.watch, verbose: f.verbose, journal: underJournal(), enc: json.NewEncoder(w)}
}

func (p *printer) event(ev *engine.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.tally.add(ev)
	if p.json {
		// Upstream's event stream has no record of a resource that was
		// not checked; the summary counts it as skipped.
		if !ev.Unchecked {
			// A failed write to stdout has nowhere better to be reported.
			_ = p.enc.Encode(ev)
		}
		return
	}
	line := humanLine(ev, p.watch || p.verbose)
	if line == "" {
		return
	}
	if p.watch {
		line += durationNote(ev)
	} else if ev.Changed || ev.Refreshed {
		line += fmt.Sprintf(" (%s)", ev.Duration.Round(time.Microsecond))
	}
	p.line(priorityOf(ev), ev.Timestamp, line)
	for _, c := range ev.Changes {
		if c.Diff != "" {
			fmt.Fprint(p.w, indent(c.Diff))
		}
	}
}

// line writes one human line: with the time in watch mode, with the
// journal's priority prefix under journald.
func (p *printer) line(priority int, at time.Time, text string) {
	switch {
	case p.journal:
		fmt.Fprintf(p.w, "<%d>%s\n", priority, text)
	case p.watch:
		fmt.Fprintf(p.w, "%s %s\n", at.Format(timeFormat), text)
	default:
		fmt.Fprintln(p.w, text)
	}
}

// durationNote closes a watch-mode line with the trigger and duration.
func durationNote(ev *engine.Event) string {
	return fmt.Sprintf(" (%s, %s)", ev.Trigger, ev.Duration.Round(time.Microsecond))
}

// humanLine describes an event in one line, or "" when it is a check that
// found nothing to report. stable shows the runs that only established
// or changed a standing.
func humanLine(ev *engine.Event, stable bool) string {
	id := ev.ID()
	if ev.Alias != "" {
		id += " (" + ev.Alias + ")"
	}
	changes := describe(ev.Changes)
	switch {
	case ev.Failed:
		return fmt.Sprintf("failed    %s: %s", id, strings.Join(ev.Error, "; "))
	case ev.Skipped && len(ev.UnmetRequirements) > 0:
		return fmt.Sprintf("skipped   %s: blocked by failed %s", id, strings.Join(ev.UnmetRequirements, ", "))
	case ev.Skipped && len(ev.Error) > 0:
		return fmt.Sprintf("skipped   %s: %s", id, strings.Join(ev.Error, "; "))
	case ev.Skipped:
		return fmt.Sprintf("skipped   %s: not managed here (control)", id)
	case ev.Changed && ev.Paused:
		return fmt.Sprintf("paused    %s: would repair %s", id, changes)
	case ev.Changed && ev.Noop:
		return fmt.Sprintf("noop      %s: %s", id, joinNonEmpty(": ", ev.NoopMessage, changes))
	case ev.Changed:
		verb := "changed  "
		if ev.Refreshed {
			verb = "refreshed"
		}
		s := verb + " " + id
		switch {
		case changes != "":
			s += ": " + changes
		case !ev.Refreshed:
			s += ": ensure=" + ev.FinalEnsure
		}
		if ev.Contested {
			s += " — contested: repaired too often, backing off"
		}
		return s
	case ev.PreviousStanding != "":
		return fmt.Sprintf("ok        %s: %s → %s", id, ev.PreviousStanding, ev.Standing)
	case stable && ev.Paused:
		return fmt.Sprintf("paused    %s: in its desired state", id)
	case stable:
		return fmt.Sprintf("ok        %s", id)
	}
	return ""
}

// describe lists what changed: "mode 0600 → 0644, owner www → root".
func describe(diffs []resources.Difference) string {
	parts := make([]string, len(diffs))
	for i, d := range diffs {
		parts[i] = d.String()
	}
	return strings.Join(parts, ", ")
}

func joinNonEmpty(sep string, parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, sep)
}

// indent sets a diff off from the event lines.
func indent(text string) string {
	return "    " + strings.ReplaceAll(strings.TrimSuffix(text, "\n"), "\n", "\n    ") + "\n"
}

// Journal priorities (sd-daemon.h) for the lines of events.
const (
	prioError  = 3
	prioNotice = 5
	prioInfo   = 6
)

func priorityOf(ev *engine.Event) int {
	switch {
	case ev.Failed || (ev.Skipped && len(ev.UnmetRequirements) > 0):
		return prioError
	case ev.Changed:
		return prioNotice
	}
	return prioInfo
}

// summaryJSON is upstream CCM's session summary, as a JSON line.
type summaryJSON struct {
	Protocol  string        `json:"protocol"`
	Duration  time.Duration `json:"total_duration"`
	Total     int           `json:"total_resources"`
	Changed   int           `json:"changed_resources"`
	Failed    int           `json:"failed_resources"`
	Skipped   int           `json:"skipped_resources"`
	Stable    int           `json:"stable_resources"`
	Refreshed int           `json:"refreshed_count"`
}

func (p *printer) summary(s engine.Summary, noop bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.json {
		_ = p.enc.Encode(summaryJSON{
			Protocol: "io.choria.ccm.v1.session.summary", Duration: s.Duration, Total: s.Resources,
			Changed: s.Changed, Failed: s.Failed, Skipped: s.Skipped, Stable: s.Stable, Refreshed: s.Refreshed,
		})
		return
	}
	verb := "changed"
	if noop {
		verb = "would change"
	}
	fmt.Fprintf(p.w, "%d resources: %d %s, %d failed, %d skipped, %d stable, %d refreshed in %s\n",
		s.Resources, s.Changed, verb, s.Failed, s.Skipped, s.Stable, s.Refreshed, s.Duration.Round(time.Millisecond))
}

func (p *printer) message(msg string) {
	if msg == "" || p.json {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintln(p.w, strings.TrimRight(msg, "\n"))
}
