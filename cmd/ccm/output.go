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

// printer writes events for people (one line per resource that changed,
// failed or was skipped) or as JSON lines (every event).
type printer struct {
	mu    sync.Mutex
	w     io.Writer
	json  bool
	watch bool
	enc   *json.Encoder
}

func newPrinter(w io.Writer, asJSON, watch bool) *printer {
	return &printer{w: w, json: asJSON, watch: watch, enc: json.NewEncoder(w)}
}

func (p *printer) event(ev *engine.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.json {
		// Upstream's event stream has no record of a resource that was
		// not checked; the summary counts it as skipped.
		if !ev.Unchecked {
			// A failed write to stdout has nowhere better to be reported.
			_ = p.enc.Encode(ev)
		}
		return
	}
	line := humanLine(ev)
	if line == "" {
		return
	}
	if p.watch {
		line = fmt.Sprintf("%s %-7s %s", ev.Timestamp.Format("15:04:05.000"), ev.Trigger, line)
	}
	fmt.Fprintln(p.w, line)
}

// humanLine describes an event in one line, or "" when nothing happened
// and no health check warns.
func humanLine(ev *engine.Event) string {
	line := outcomeLine(ev)
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

// outcomeLine says what a run did, or "" when it found nothing to do.
func outcomeLine(ev *engine.Event) string {
	id := displayID(ev)
	switch {
	case ev.RolledBack && (ev.Failed || ev.Changed):
		return fmt.Sprintf("rolled back %s: %s", id, strings.Join(ev.Error, "; "))
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
	case ev.Changed && ev.Noop:
		return fmt.Sprintf("noop      %s: %s", id, ev.NoopMessage)
	case ev.Changed:
		verb := "changed  "
		if ev.Refreshed {
			verb = "refreshed"
		}
		s := fmt.Sprintf("%s %s ensure=%s (%s)", verb, id, ev.FinalEnsure, ev.Duration.Round(time.Microsecond))
		if ev.Contested {
			s += " — contested: repaired too often, backing off"
		}
		return s
	}
	return ""
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
	// RolledBack is ours: upstream has no rollback.
	RolledBack int `json:"rolled_back_resources,omitempty"`
	Checked    int `json:"health_checked_count"`
	OK         int `json:"health_check_ok_count"`
	Warning    int `json:"health_check_warning_count"`
	Critical   int `json:"health_check_critical_count"`
	Unknown    int `json:"health_check_unknown_count"`
}

func (p *printer) summary(s engine.Summary, noop bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.json {
		_ = p.enc.Encode(summaryJSON{
			Protocol: "io.choria.ccm.v1.session.summary", Duration: s.Duration, Total: s.Resources,
			Changed: s.Changed, Failed: s.Failed, Skipped: s.Skipped, Stable: s.Stable, Refreshed: s.Refreshed, RolledBack: s.RolledBack,
			Checked: s.Health.Checked, OK: s.Health.OK, Warning: s.Health.Warning, Critical: s.Health.Critical, Unknown: s.Health.Unknown,
		})
		return
	}
	verb := "changed"
	if noop {
		verb = "would change"
	}
	health := ""
	if h := s.Health; h.Checked > 0 {
		health = fmt.Sprintf("; health checks: %d OK, %d WARNING, %d CRITICAL, %d UNKNOWN", h.OK, h.Warning, h.Critical, h.Unknown)
	}
	rolled := ""
	if s.RolledBack > 0 {
		rolled = fmt.Sprintf(", %d rolled back", s.RolledBack)
	}
	fmt.Fprintf(p.w, "%d resources: %d %s, %d failed%s, %d skipped, %d stable, %d refreshed%s in %s\n",
		s.Resources, s.Changed, verb, s.Failed, rolled, s.Skipped, s.Stable, s.Refreshed, health, s.Duration.Round(time.Millisecond))
}

func (p *printer) message(msg string) {
	if msg == "" || p.json {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintln(p.w, strings.TrimRight(msg, "\n"))
}
