package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/reactive-ccm/ccm/engine"
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

// humanLine describes an event in one line, or "" when nothing happened.
func humanLine(ev *engine.Event) string {
	id := ev.ID()
	if ev.Alias != "" {
		id += " (" + ev.Alias + ")"
	}
	switch {
	case ev.Failed:
		return fmt.Sprintf("failed    %s: %s", id, strings.Join(ev.Error, "; "))
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
