package eventlog_test

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/eventlog"
)

// TestSummaryLines: the one-shot run's last line, for each kind of run.
func TestSummaryLines(t *testing.T) {
	base := engine.Summary{Resources: 5, Changed: 2, Failed: 1, Skipped: 1, Stable: 1, Duration: 2500 * time.Millisecond}
	for _, tc := range []struct {
		name string
		set  func(*engine.Summary)
		noop bool
		want string
	}{
		{"a run", func(*engine.Summary) {}, false, "5 resources: 2 changed, 1 failed, 1 skipped, 1 stable, 0 refreshed in 2.5s\n"},
		{"a noop run counts what would change", func(s *engine.Summary) { s.Changed, s.WouldChange = 0, 3 }, true,
			"5 resources: 3 would change, 1 failed, 1 skipped, 1 stable, 0 refreshed in 2.5s\n"},
		{"an apply child in noop within a run", func(s *engine.Summary) { s.WouldChange = 1 }, false,
			"5 resources: 2 changed, 1 would change, 1 failed, 1 skipped, 1 stable, 0 refreshed in 2.5s\n"},
		{"rollbacks after the failures", func(s *engine.Summary) { s.RolledBack, s.Refreshed = 1, 2 }, false,
			"5 resources: 2 changed, 1 failed, 1 rolled back, 1 skipped, 1 stable, 2 refreshed in 2.5s\n"},
		{"health checks", func(s *engine.Summary) {
			s.Health = engine.HealthCounts{Checked: 4, OK: 1, Warning: 1, Critical: 1, Unknown: 1}
		}, false,
			"5 resources: 2 changed, 1 failed, 1 skipped, 1 stable, 0 refreshed; health checks: 1 OK, 1 WARNING, 1 CRITICAL, 1 UNKNOWN in 2.5s\n"},
		{"the duration to the millisecond", func(s *engine.Summary) { s.Duration = 1234567 * time.Microsecond }, false,
			"5 resources: 2 changed, 1 failed, 1 skipped, 1 stable, 0 refreshed in 1.235s\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := base
			tc.set(&s)
			var b bytes.Buffer
			p := eventlog.NewPrinter(&b, eventlog.Options{})
			p.Summary(s, tc.noop)
			p.Flush()
			if b.String() != tc.want {
				t.Errorf("got  %q\nwant %q", b.String(), tc.want)
			}
		})
	}
}

// TestSummaryJSON: upstream's session summary, each resource counted
// once, a would-be change counted as a change and a rollback as an error.
func TestSummaryJSON(t *testing.T) {
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	s := engine.Summary{Resources: 6, Changed: 1, WouldChange: 2, Failed: 1, RolledBack: 1, Skipped: 1, Stable: 1, Unmet: 2, Refreshed: 1,
		Health: engine.HealthCounts{Checked: 2, OK: 1, Critical: 1}, Start: start, Duration: 3 * time.Second}
	var b bytes.Buffer
	p := eventlog.NewPrinter(&b, eventlog.Options{JSON: true})
	p.Summary(s, false)
	p.Message("pre_message is not JSON\n")
	p.Flush()
	var got map[string]any
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatalf("%v: %q", err, b.String())
	}
	want := map[string]any{
		"protocol": "io.choria.ccm.v1.session.summary", "start_time": "2026-01-01T12:00:00Z", "end_time": "2026-01-01T12:00:03Z",
		"total_duration": 3e9, "total_resources": 6.0, "unique_resources": 6.0, "changed_resources": 3.0, "failed_resources": 1.0,
		"skipped_resources": 1.0, "stable_resources": 1.0, "refreshed_count": 1.0, "requirements_unmet_count": 2.0,
		"rolled_back_resources": 1.0, "health_checked_count": 2.0, "health_check_ok_count": 1.0, "health_check_warning_count": 0.0,
		"health_check_critical_count": 1.0, "health_check_unknown_count": 0.0, "total_errors": 2.0,
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s = %v, want %v", k, got[k], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("keys %d, want %d: %v", len(got), len(want), got)
	}
}

// TestSessionTally: which count of the watch session's summary each
// event moves.
func TestSessionTally(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(*engine.Event)
		want string
	}{
		{"a repair of drift", func(e *engine.Event) { e.Changed = true }, "repairs"},
		{"a repair found by a poll", func(e *engine.Event) { e.Changed, e.Trigger = true, engine.TriggerPoll }, "repairs"},
		{"a repair asked for by recheck", func(e *engine.Event) { e.Changed, e.Trigger = true, engine.TriggerRecheck }, "repairs"},
		{"a change at startup", func(e *engine.Event) { e.Changed, e.Trigger = true, engine.TriggerStartup }, "other_changes"},
		{"a change after a resume", func(e *engine.Event) { e.Changed, e.Trigger = true, engine.TriggerResume }, "other_changes"},
		{"a noop change is none", func(e *engine.Event) { e.Changed, e.Noop = true, true }, ""},
		{"drift on a paused resource", func(e *engine.Event) { e.Changed, e.Paused = true, true }, "paused_drift"},
		{"a failed repair", func(e *engine.Event) { e.Changed, e.Failed = true, true }, "failures"},
		{"a contest", func(e *engine.Event) { e.Contested = true }, "contests"},
		{"a stable check", func(*engine.Event) {}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			t.Setenv("JOURNAL_STREAM", "")
			p := eventlog.NewPrinter(&b, eventlog.Options{Watch: true, JSON: true})
			p.Event(ev(tc.set))
			b.Reset()
			p.Session(time.Minute, 0, engine.State{}, "")
			var got map[string]any
			if err := json.Unmarshal(b.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{"repairs", "other_changes", "refreshes", "failures", "contests", "paused_drift"} {
				want := 0.0
				if k == tc.want {
					want = 1
				}
				if got[k] != want {
					t.Errorf("%s = %v, want %v", k, got[k], want)
				}
			}
		})
	}
}

// TestSessionLine: the watch session's last line for people.
func TestSessionLine(t *testing.T) {
	var b bytes.Buffer
	t.Setenv("JOURNAL_STREAM", "8:1")
	p := eventlog.NewPrinter(&b, eventlog.Options{Watch: true})
	p.Event(ev(func(e *engine.Event) { e.Changed, e.Refreshed = true, true }))
	b.Reset()
	p.Session(90*time.Minute+400*time.Millisecond, 2, engine.State{}, "3 resources: 3 converged")
	want := "<6>session   1h30m0s: 1 repairs of drift, 0 other changes, 1 refreshes, 0 failures, 0 contested, 2 reloads; 3 resources: 3 converged\n"
	if b.String() != want {
		t.Errorf("got  %q\nwant %q", b.String(), want)
	}
}

// TestMessageKeepsOneTrailingNewline: a pre_message or post_message is
// printed as written, its trailing newlines folded into one.
func TestMessageKeepsOneTrailingNewline(t *testing.T) {
	for msg, want := range map[string]string{"": "", "hello": "hello\n", "hello\n\n": "hello\n", "two\nlines\n": "two\nlines\n"} {
		var b bytes.Buffer
		p := eventlog.NewPrinter(&b, eventlog.Options{})
		p.Message(msg)
		p.Flush()
		if b.String() != want {
			t.Errorf("Message(%q) printed %q, want %q", msg, b.String(), want)
		}
	}
	var b bytes.Buffer
	p := eventlog.NewPrinter(&b, eventlog.Options{JSON: true})
	p.Message("hello")
	p.Flush()
	if b.Len() != 0 {
		t.Errorf("a message in JSON output: %q", b.String())
	}
}
