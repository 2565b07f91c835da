package eventlog

import (
	"fmt"
	"strings"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/session"
)

// summaryJSON is upstream CCM's session summary, as a JSON line. Each
// resource is counted once, by its last event, so total_resources and
// unique_resources agree (upstream counts events in total_resources, and
// a manifest may name a resource twice there).
type summaryJSON struct {
	Protocol string `json:"protocol"`
	session.Counts
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
			Protocol: "io.choria.ccm.v1.session.summary",
			Counts: session.Counts{StartTime: s.Start, EndTime: s.Start.Add(s.Duration), Duration: s.Duration,
				Total: s.Resources, Unique: s.Resources, Changed: s.Changed + s.WouldChange, Failed: s.Failed, Skipped: s.Skipped, Stable: s.Stable,
				Refreshed: s.Refreshed, Unmet: s.Unmet},
			RolledBack: s.RolledBack, Errors: s.Failed + s.RolledBack,
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
