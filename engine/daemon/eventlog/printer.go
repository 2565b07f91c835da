// Package eventlog prints what the engine does, for people and for
// programs: one line per event that changed, failed, was skipped or
// changed standing (every check with Verbose), or JSON lines in upstream
// CCM's TransactionEvent shape; the one-shot run's summary (upstream's
// session summary in JSON) and the watch session's; upstream's result
// line of `ccm ensure`; the live status line of a one-shot run; and log
// lines in the same style (LogHandler).
//
// Guarantees:
//   - One line per event: a newline or tab inside a name or an error is
//     escaped (termsafe.OneLine), so a reader, or the journal reading a
//     priority prefix, never takes data for a line of ccm's.
//   - A reader that goes away (a closed pipe) costs one warning; the
//     engine goes on and later events are dropped.
//   - A one-shot run's lines are written in batches (at most batchDelay
//     late, Flush at the end); watch mode writes each line at once.
//   - Under journald each line carries its priority and no time.
package eventlog

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/internal/termsafe"
	"github.com/reactive-ccm/ccm/resources"
)

// Options shape a Printer's output.
type Options struct {
	// JSON prints every event as a JSON line, and the summaries as JSON.
	JSON bool
	// Watch starts each line with the time and writes it at once.
	Watch bool
	// Verbose also prints the checks that found nothing to do.
	Verbose bool
}

// Printer writes the events the engine emits, for people or as JSON
// lines. In watch mode each human line starts with the time, in the
// format log lines use; under journald the journal stamps lines instead
// and each line carries its priority. Its methods are safe for
// concurrent use.
type Printer struct {
	mu      sync.Mutex
	w       io.Writer
	json    bool
	watch   bool
	verbose bool
	journal bool
	enc     *json.Encoder
	tally   tally
	// batch holds a one-shot run's lines (see batchWriter); nil in watch
	// mode.
	batch *batchWriter
}

// NewPrinter prints to w as o says.
func NewPrinter(w io.Writer, o Options) *Printer {
	w = &dropWriter{w: w}
	var batch *batchWriter
	if !o.Watch {
		batch = newBatchWriter(w, batchDelay)
		w = batch
	}
	return &Printer{w: w, json: o.JSON, watch: o.Watch, verbose: o.Verbose, journal: UnderJournal(), enc: json.NewEncoder(w), batch: batch}
}

// Flush writes out the lines a one-shot run holds.
func (p *Printer) Flush() {
	if p.batch != nil {
		p.batch.Flush()
	}
}

// dropWriter passes writes on until one fails (a closed pipe), warns
// once, and drops every write after: the engine goes on without a
// reader of its events.
type dropWriter struct {
	w       io.Writer
	dropped bool
}

func (d *dropWriter) Write(p []byte) (int, error) {
	if d.dropped {
		return len(p), nil
	}
	if _, err := d.w.Write(p); err != nil {
		d.dropped = true
		slog.Warn("cannot write events to standard output; dropping them from now on", "error", err)
	}
	return len(p), nil
}

// Event prints ev (engine.Options.Events).
func (p *Printer) Event(ev *engine.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.tally.add(ev)
	if p.json {
		// Upstream's event stream has no record of a resource that was
		// not checked; the summary counts it as skipped.
		if !ev.Unchecked {
			// dropWriter reports a failed write.
			_ = p.enc.Encode(ev)
		}
		return
	}
	line := humanLine(ev, p.verbose)
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
func (p *Printer) line(priority int, at time.Time, text string) {
	text = termsafe.OneLine(text)
	switch {
	case p.journal:
		fmt.Fprintf(p.w, "<%d>%s\n", priority, text)
	case p.watch:
		fmt.Fprintf(p.w, "%s %s\n", at.Format(TimeFormat), text)
	default:
		fmt.Fprintln(p.w, text)
	}
}

// durationNote closes a watch-mode line with the trigger and duration.
func durationNote(ev *engine.Event) string {
	return fmt.Sprintf(" (%s, %s)", ev.Trigger, ev.Duration.Round(time.Microsecond))
}

// humanLine describes an event in one line, or "" when it is a check that
// found nothing to report and no health check warns. stable shows the
// runs that found nothing to do.
func humanLine(ev *engine.Event, stable bool) string {
	line := outcomeLine(ev, stable)
	switch {
	case !hasWarning(ev):
		return line
	case line == "":
		return fmt.Sprintf("warning   %s: %s", displayID(ev), healthLine(ev, resources.HealthWarning))
	}
	return line + " — " + healthLine(ev, resources.HealthWarning)
}

func displayID(ev *engine.Event) string {
	if ev.Alias != "" {
		return ev.ID() + " (" + ev.Alias + ")"
	}
	return ev.ID()
}

// outcomeLine says what a run did, what it found different (observed →
// desired), or "" when it found nothing to report.
func outcomeLine(ev *engine.Event, stable bool) string {
	id := displayID(ev)
	changes := Describe(ev.Changes)
	switch {
	case ev.RolledBack && ev.Failed:
		return fmt.Sprintf("rolled back %s: %s", id, strings.Join(ev.Error, "; "))
	case ev.RolledBack && ev.Changed:
		return fmt.Sprintf("restored  %s: %s", id, strings.Join(ev.Error, "; "))
	case ev.Failed:
		return fmt.Sprintf("failed    %s: %s", id, strings.Join(ev.Error, "; "))
	case ev.HealthCheckOnly && len(ev.HealthChecks) > 0 && !hasWarning(ev):
		return fmt.Sprintf("healthy   %s: %s", id, healthLine(ev, resources.HealthOK))
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
		return changedLine(ev, id, changes)
	case ev.PreviousStanding != "":
		return fmt.Sprintf("ok        %s: %s → %s", id, ev.PreviousStanding, ev.Standing)
	case stable && ev.Paused:
		return fmt.Sprintf("paused    %s: in its desired state", id)
	case stable:
		return fmt.Sprintf("ok        %s", id)
	}
	return ""
}

// changedLine is "changed   file#/etc/motd: mode 0600 → 0644", or
// "refreshed …" when a subscription caused it.
func changedLine(ev *engine.Event, id, changes string) string {
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
		s += " — contested: repaired too often, backing off (writer: " + ev.Writer + ")"
	}
	return s
}

// Describe lists what changed: "mode 0600 → 0644, owner www → root".
func Describe(diffs []resources.Difference) string {
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

func hasWarning(ev *engine.Event) bool {
	for _, r := range ev.HealthChecks {
		if r.Status == resources.HealthWarning {
			return true
		}
	}
	return false
}

// healthLine names the checks with status st and their first line of
// output.
func healthLine(ev *engine.Event, st resources.HealthStatus) string {
	var parts []string
	for _, r := range ev.HealthChecks {
		if r.Status != st {
			continue
		}
		p := fmt.Sprintf("health check %s %s", r.Name, r.Status)
		if out, _, _ := strings.Cut(r.Output, "\n"); out != "" && st != resources.HealthOK {
			p += ": " + out
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, "; ")
}

// summaryJSON is upstream CCM's session summary, as a JSON line. Each
// resource is counted once, by its last event, so total_resources and
// unique_resources agree (upstream counts events in total_resources, and
// a manifest may name a resource twice there).
type summaryJSON struct {
	Protocol  string        `json:"protocol"`
	StartTime time.Time     `json:"start_time"`
	EndTime   time.Time     `json:"end_time"`
	Duration  time.Duration `json:"total_duration"`
	Total     int           `json:"total_resources"`
	Unique    int           `json:"unique_resources"`
	Changed   int           `json:"changed_resources"`
	Failed    int           `json:"failed_resources"`
	Skipped   int           `json:"skipped_resources"`
	Stable    int           `json:"stable_resources"`
	Refreshed int           `json:"refreshed_count"`
	Unmet     int           `json:"requirements_unmet_count"`
	// RolledBack is ours: upstream has no rollback.
	RolledBack int `json:"rolled_back_resources,omitempty"`
	Checked    int `json:"health_checked_count"`
	OK         int `json:"health_check_ok_count"`
	Warning    int `json:"health_check_warning_count"`
	Critical   int `json:"health_check_critical_count"`
	Unknown    int `json:"health_check_unknown_count"`
	// Errors counts the failed resources, rolled back or not.
	Errors int `json:"total_errors"`
}

// Summary prints a one-shot run's summary; noop counts what would
// change as the change.
func (p *Printer) Summary(s engine.Summary, noop bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.json {
		// As upstream, a noop resource that would change counts as changed.
		_ = p.enc.Encode(summaryJSON{
			Protocol: "io.choria.ccm.v1.session.summary", StartTime: s.Start, EndTime: s.Start.Add(s.Duration), Duration: s.Duration,
			Total: s.Resources, Unique: s.Resources, Changed: s.Changed + s.WouldChange, Failed: s.Failed, Skipped: s.Skipped, Stable: s.Stable,
			Refreshed: s.Refreshed, Unmet: s.Unmet, RolledBack: s.RolledBack, Errors: s.Failed + s.RolledBack,
			Checked: s.Health.Checked, OK: s.Health.OK, Warning: s.Health.Warning, Critical: s.Health.Critical, Unknown: s.Health.Unknown,
		})
		return
	}
	changed := fmt.Sprintf("%d changed", s.Changed)
	switch {
	case noop:
		changed = fmt.Sprintf("%d would change", s.WouldChange)
	case s.WouldChange > 0:
		changed += fmt.Sprintf(", %d would change", s.WouldChange)
	}
	health := ""
	if h := s.Health; h.Checked > 0 {
		health = fmt.Sprintf("; health checks: %d OK, %d WARNING, %d CRITICAL, %d UNKNOWN", h.OK, h.Warning, h.Critical, h.Unknown)
	}
	rolled := ""
	if s.RolledBack > 0 {
		rolled = fmt.Sprintf(", %d rolled back", s.RolledBack)
	}
	fmt.Fprintf(p.w, "%d resources: %s, %d failed%s, %d skipped, %d stable, %d refreshed%s in %s\n",
		s.Resources, changed, s.Failed, rolled, s.Skipped, s.Stable, s.Refreshed, health, s.Duration.Round(time.Millisecond))
}

// Message prints a manifest's pre_message or post_message, except in JSON.
func (p *Printer) Message(msg string) {
	if msg == "" || p.json {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintln(p.w, strings.TrimRight(msg, "\n"))
}
