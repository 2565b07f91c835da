package eventlog_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/eventlog"
	"github.com/reactive-ccm/ccm/resources"
)

var at = time.Date(2026, 1, 1, 12, 30, 5, 0, time.UTC)

func ev(set func(*engine.Event)) *engine.Event {
	e := &engine.Event{Type: "file", Name: "/etc/motd", Timestamp: at, Duration: 1500 * time.Microsecond, Trigger: engine.TriggerDrift, FinalEnsure: "present"}
	set(e)
	return e
}

var mode = []resources.Difference{{Property: "mode", Observed: "0600", Desired: "0644"}}

// print writes events through a printer with o and returns the output.
func print(t *testing.T, o eventlog.Options, events ...*engine.Event) string {
	t.Helper()
	t.Setenv("JOURNAL_STREAM", "")
	var b bytes.Buffer
	p := eventlog.NewPrinter(&b, o)
	for _, e := range events {
		p.Event(e)
	}
	p.Flush()
	return b.String()
}

func TestEventLines(t *testing.T) {
	warning := []resources.HealthResult{{Name: "disk", Status: resources.HealthWarning, Output: "80% full\nmore"}}
	for _, tc := range []struct {
		name    string
		set     func(*engine.Event)
		verbose bool
		want    string
	}{
		{"a change, observed and desired", func(e *engine.Event) { e.Changed, e.Changes = true, mode }, false, "changed   file#/etc/motd: mode 0600 → 0644 (1.5ms)\n"},
		{"a change without differences", func(e *engine.Event) { e.Changed = true }, false, "changed   file#/etc/motd: ensure=present (1.5ms)\n"},
		{"a refresh", func(e *engine.Event) { e.Changed, e.Refreshed = true, true }, false, "refreshed file#/etc/motd (1.5ms)\n"},
		{"a failure", func(e *engine.Event) { e.Failed, e.Error = true, []string{"a", "b"} }, false, "failed    file#/etc/motd: a; b\n"},
		{"skipped for a failed requirement", func(e *engine.Event) { e.Skipped, e.UnmetRequirements = true, []string{"exec#x"} }, false, "skipped   file#/etc/motd: blocked by failed exec#x\n"},
		{"noop, with the alias", func(e *engine.Event) { e.Changed, e.Noop, e.NoopMessage, e.Alias = true, true, "would write", "motd" }, false, "noop      file#/etc/motd (motd): would write (1.5ms)\n"},
		{"a contested repair", func(e *engine.Event) { e.Changed, e.Contested, e.Writer, e.Changes = true, true, "vim", mode }, false,
			"changed   file#/etc/motd: mode 0600 → 0644 — contested: repaired too often, backing off (writer: vim) (1.5ms)\n"},
		{"a stable check is quiet", func(*engine.Event) {}, false, ""},
		{"a stable check with verbose", func(*engine.Event) {}, true, "ok        file#/etc/motd\n"},
		{"a health warning alone", func(e *engine.Event) { e.HealthChecks = warning }, false, "warning   file#/etc/motd: health check disk WARNING: 80% full\n"},
		{"a newline in an error stays on the line", func(e *engine.Event) { e.Failed, e.Error = true, []string{"x\n<0>forged"} }, false, `failed    file#/etc/motd: x\n<0>forged` + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := print(t, eventlog.Options{Verbose: tc.verbose}, ev(tc.set)); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestWatchLinesCarryTimeAndTrigger(t *testing.T) {
	got := print(t, eventlog.Options{Watch: true}, ev(func(e *engine.Event) { e.Changed, e.Changes = true, mode }))
	want := at.Format(eventlog.TimeFormat) + " changed   file#/etc/motd: mode 0600 → 0644 (drift, 1.5ms)\n"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestJournalLinesCarryPriority(t *testing.T) {
	var b bytes.Buffer
	t.Setenv("JOURNAL_STREAM", "8:1")
	p := eventlog.NewPrinter(&b, eventlog.Options{Watch: true})
	p.Event(ev(func(e *engine.Event) { e.Failed, e.Error = true, []string{"x"} }))
	p.Event(ev(func(e *engine.Event) { e.Changed = true }))
	if want := "<3>failed    file#/etc/motd: x (drift, 1.5ms)\n<5>changed   file#/etc/motd: ensure=present (drift, 1.5ms)\n"; b.String() != want {
		t.Errorf("got  %q\nwant %q", b.String(), want)
	}
}

func TestJSONLeavesOutUncheckedResources(t *testing.T) {
	got := print(t, eventlog.Options{JSON: true}, ev(func(e *engine.Event) { e.Unchecked = true }), ev(func(e *engine.Event) { e.Changed = true }))
	lines := strings.Split(strings.TrimSpace(got), "\n")
	var decoded engine.Event
	if len(lines) != 1 || json.Unmarshal([]byte(lines[0]), &decoded) != nil || !decoded.Changed {
		t.Fatalf("JSON lines %q", lines)
	}
}

func TestSummary(t *testing.T) {
	s := engine.Summary{Resources: 4, Changed: 1, WouldChange: 1, Failed: 1, Stable: 1, Duration: 1234 * time.Millisecond}
	var b bytes.Buffer
	p := eventlog.NewPrinter(&b, eventlog.Options{})
	p.Summary(s, false)
	p.Message("done\n")
	p.Flush()
	if want := "4 resources: 1 changed, 1 would change, 1 failed, 0 skipped, 1 stable, 0 refreshed in 1.234s\ndone\n"; b.String() != want {
		t.Errorf("got  %q\nwant %q", b.String(), want)
	}
	b.Reset()
	p = eventlog.NewPrinter(&b, eventlog.Options{JSON: true})
	p.Summary(s, true)
	p.Message("not in JSON")
	p.Flush()
	var got map[string]any
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatalf("%v: %q", err, b.String())
	}
	if got["protocol"] != "io.choria.ccm.v1.session.summary" || got["changed_resources"] != 2.0 || got["total_errors"] != 1.0 {
		t.Errorf("summary %v", got)
	}
}

// TestSummaryJSONKeepsUpstreamOrder: the summary line's keys come in
// upstream's order, ours (rolled back, health) before total_errors, as
// the corpus compares them.
func TestSummaryJSONKeepsUpstreamOrder(t *testing.T) {
	var b bytes.Buffer
	p := eventlog.NewPrinter(&b, eventlog.Options{JSON: true})
	p.Summary(engine.Summary{Resources: 2, Failed: 1, RolledBack: 1}, false)
	p.Flush()
	keys := []string{"protocol", "start_time", "end_time", "total_duration", "total_resources", "unique_resources", "changed_resources",
		"failed_resources", "skipped_resources", "stable_resources", "refreshed_count", "requirements_unmet_count", "rolled_back_resources",
		"health_checked_count", "health_check_ok_count", "health_check_warning_count", "health_check_critical_count",
		"health_check_unknown_count", "total_errors"}
	last := -1
	for _, k := range keys {
		i := strings.Index(b.String(), `"`+k+`":`)
		if i <= last {
			t.Fatalf("%s out of place in %s", k, b.String())
		}
		last = i
	}
}

func TestSessionCountsWhatTheWatchDid(t *testing.T) {
	var b bytes.Buffer
	t.Setenv("JOURNAL_STREAM", "")
	p := eventlog.NewPrinter(&b, eventlog.Options{Watch: true, JSON: true})
	for _, e := range []*engine.Event{
		ev(func(e *engine.Event) { e.Changed = true }),
		ev(func(e *engine.Event) { e.Changed, e.Trigger = true, engine.TriggerReload }),
		ev(func(e *engine.Event) { e.Changed, e.Refreshed, e.Trigger = true, true, engine.TriggerRefresh }),
		ev(func(e *engine.Event) { e.Failed = true }),
		ev(func(e *engine.Event) { e.Changed, e.Paused = true, true }),
	} {
		p.Event(e)
	}
	b.Reset()
	p.Session(time.Minute, 3, engine.State{}, "")
	var got map[string]any
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]float64{"repairs": 1, "other_changes": 2, "refreshes": 1, "failures": 1, "paused_drift": 1, "reloads": 3, "duration_seconds": 60} {
		if got[k] != want {
			t.Errorf("%s = %v, want %v", k, got[k], want)
		}
	}
}

func TestWriteResult(t *testing.T) {
	var b bytes.Buffer
	eventlog.WriteResult(&b, &engine.Event{Type: "package", Name: "zsh", Changed: true, RequestedEnsure: "present", Duration: 1204 * time.Millisecond, Provider: "apt"})
	eventlog.WriteResult(&b, &engine.Event{Type: "exec", Name: "x", Alias: "y", Failed: true, Error: []string{"boom"}, Provider: "posix"})
	want := "WARN  package#zsh changed ensure=present runtime=1.204s provider=apt\n" +
		"ERROR exec#y (alias) failed ensure= runtime=0s provider=posix errors=\"boom\"\n"
	if b.String() != want {
		t.Errorf("got\n%swant\n%s", b.String(), want)
	}
}

// failing fails every write, as a closed pipe does.
type failing struct{ writes int }

func (f *failing) Write([]byte) (int, error) { f.writes++; return 0, errors.New("broken pipe") }

func TestAGoneReaderIsWarnedOfOnce(t *testing.T) {
	var logs bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(eventlog.NewLogHandler(&logs, slog.LevelInfo, true)))
	t.Cleanup(func() { slog.SetDefault(prev) })
	w := &failing{}
	p := eventlog.NewPrinter(w, eventlog.Options{Watch: true})
	for range 3 {
		p.Event(ev(func(e *engine.Event) { e.Changed = true }))
	}
	if w.writes != 1 || strings.Count(logs.String(), "\n") != 1 || !strings.Contains(logs.String(), "<4>warn      cannot write events") {
		t.Errorf("%d writes, logs %q", w.writes, logs.String())
	}
}

func TestLogHandlerLines(t *testing.T) {
	var b bytes.Buffer
	log := slog.New(eventlog.NewLogHandler(&b, slog.LevelInfo, false)).With("run", 1).WithGroup("g")
	log.Debug("hidden")
	log.Warn("two\nlines", "path", "/a b", "empty", "", "n", 3)
	line := b.String()
	if _, rest, ok := strings.Cut(line, " "); !ok || rest != "warn      two\\nlines run=1 g.path=\"/a b\" g.empty=\"\" g.n=3\n" {
		t.Errorf("line %q", line)
	}
}
