package eventlog

import (
	"fmt"
	"time"

	"github.com/reactive-ccm/ccm/engine"
)

// tally counts what a watch session did, from the events it emitted.
type tally struct {
	repairs   int // changes of drift: drift, poll or re-check
	changes   int // every other change: startup, reload, refresh, retry, resume
	refreshes int
	failures  int
	contests  int
	paused    int // drift reported on paused resources
}

func (t *tally) add(ev *engine.Event) {
	switch {
	case ev.Failed:
		t.failures++
	case ev.Paused && ev.Changed:
		t.paused++
	case !ev.Changed || ev.Noop:
	case ev.Trigger == engine.TriggerDrift || ev.Trigger == engine.TriggerPoll || ev.Trigger == engine.TriggerRecheck:
		t.repairs++
	default:
		t.changes++
	}
	if ev.Refreshed {
		t.refreshes++
	}
	if ev.Contested {
		t.contests++
	}
}

// sessionJSON is the watch session's summary as a JSON line.
type sessionJSON struct {
	Protocol  string       `json:"protocol"`
	Duration  float64      `json:"duration_seconds"`
	Repairs   int          `json:"repairs"`
	Changes   int          `json:"other_changes"`
	Refreshes int          `json:"refreshes"`
	Failures  int          `json:"failures"`
	Contests  int          `json:"contests"`
	Paused    int          `json:"paused_drift"`
	Reloads   int          `json:"reloads"`
	State     engine.State `json:"state"`
}

// Session prints what a watch session did when it stops (it lasted d and
// reloaded reloads times), and where every resource stands: st, and
// standing as a line for people.
func (p *Printer) Session(d time.Duration, reloads int, st engine.State, standing string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	t := p.tally
	if p.json {
		_ = p.enc.Encode(sessionJSON{Protocol: sessionProtocol, Duration: d.Seconds(), Repairs: t.repairs, Changes: t.changes,
			Refreshes: t.refreshes, Failures: t.failures, Contests: t.contests, Paused: t.paused, Reloads: reloads, State: st})
		return
	}
	p.line(prioInfo, time.Now(), fmt.Sprintf("session   %s: %d repairs of drift, %d other changes, %d refreshes, %d failures, %d contested, %d reloads; %s",
		d.Round(time.Second), t.repairs, t.changes, t.refreshes, t.failures, t.contests, reloads, standing))
}

// sessionProtocol names the watch session summary in JSON.
const sessionProtocol = "io.reactive-ccm.v1.watch.session"
