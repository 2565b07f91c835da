package eventlog

import (
	"fmt"
	"strings"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/resources"
)

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

// Journal priorities (sd-daemon.h) for the lines of events and logs.
const (
	prioError   = 3
	prioWarning = 4
	prioNotice  = 5
	prioInfo    = 6
	prioDebug   = 7
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
