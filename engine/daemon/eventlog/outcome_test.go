package eventlog_test

import (
	"bytes"
	"testing"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/eventlog"
	"github.com/reactive-ccm/ccm/engine/daemon/status"
	"github.com/reactive-ccm/ccm/resources"
)

// TestOutcomeLines: the line for each outcome printer_test.go's
// TestEventLines leaves out, the first matching case winning.
func TestOutcomeLines(t *testing.T) {
	ok := []resources.HealthResult{{Name: "http", Status: resources.HealthOK, Output: "200 in 3ms"}}
	warn := []resources.HealthResult{{Name: "disk", Status: resources.HealthWarning, Output: "80% full"}, {Name: "load", Status: resources.HealthWarning}}
	for _, tc := range []struct {
		name    string
		set     func(*engine.Event)
		verbose bool
		want    string
	}{
		{"a failed rollback", func(e *engine.Event) {
			e.RolledBack, e.Failed, e.Changed, e.Error = true, true, true, []string{"service#web unhealthy"}
		}, false,
			"rolled back file#/etc/motd: service#web unhealthy (1.5ms)\n"},
		{"a repair of a held resource", func(e *engine.Event) { e.RolledBack, e.Changed, e.Error = true, true, []string{"held since 12:00"} }, false,
			"restored  file#/etc/motd: held since 12:00 (1.5ms)\n"},
		{"a failure beats a change", func(e *engine.Event) { e.Failed, e.Changed, e.Error = true, true, []string{"boom"} }, false, "failed    file#/etc/motd: boom (1.5ms)\n"},
		{"health checks only, OK, output left out", func(e *engine.Event) { e.HealthCheckOnly, e.HealthChecks = true, ok }, false,
			"healthy   file#/etc/motd: health check http OK\n"},
		{"health checks only, warning", func(e *engine.Event) { e.HealthCheckOnly, e.HealthChecks = true, warn }, false,
			"warning   file#/etc/motd: health check disk WARNING: 80% full; health check load WARNING\n"},
		{"a change with a warning", func(e *engine.Event) { e.Changed, e.Changes, e.HealthChecks = true, mode, warn[:1] }, false,
			"changed   file#/etc/motd: mode 0600 → 0644 — health check disk WARNING: 80% full (1.5ms)\n"},
		{"skipped with a reason", func(e *engine.Event) { e.Skipped, e.Error = true, []string{"control: if is false"} }, false, "skipped   file#/etc/motd: control: if is false\n"},
		{"skipped by control", func(e *engine.Event) { e.Skipped = true }, false, "skipped   file#/etc/motd: not managed here (control)\n"},
		{"drift while paused", func(e *engine.Event) { e.Changed, e.Paused, e.Changes = true, true, mode }, false, "paused    file#/etc/motd: would repair mode 0600 → 0644 (1.5ms)\n"},
		{"paused and stable, verbose", func(e *engine.Event) { e.Paused = true }, true, "paused    file#/etc/motd: in its desired state\n"},
		{"paused and stable, quiet", func(e *engine.Event) { e.Paused = true }, false, ""},
		{"a noop with differences only", func(e *engine.Event) { e.Changed, e.Noop, e.Changes = true, true, mode }, false, "noop      file#/etc/motd: mode 0600 → 0644 (1.5ms)\n"},
		{"a refresh that changed something", func(e *engine.Event) { e.Changed, e.Refreshed, e.Changes = true, true, mode }, false,
			"refreshed file#/etc/motd: mode 0600 → 0644 (1.5ms)\n"},
		{"a standing that changed, without verbose", func(e *engine.Event) { e.PreviousStanding, e.Standing = status.Failed, status.Converged }, false,
			"ok        file#/etc/motd: failed → converged\n"},
		{"several differences", func(e *engine.Event) {
			e.Changed, e.Changes = true, append(mode, resources.Difference{Property: "owner", Observed: "www", Desired: "root"})
		}, false, "changed   file#/etc/motd: mode 0600 → 0644, owner www → root (1.5ms)\n"},
		{"a diff is indented under its line", func(e *engine.Event) {
			e.Changed, e.Changes = true, []resources.Difference{{Property: "content", Observed: "a", Desired: "b", Diff: "-a\n+b\n"}}
		}, false, "changed   file#/etc/motd: content a → b (1.5ms)\n    -a\n    +b\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := print(t, eventlog.Options{Verbose: tc.verbose}, ev(tc.set)); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestJournalPriorities: under journald, what failed or was blocked is
// an error, a change a notice, the rest information.
func TestJournalPriorities(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(*engine.Event)
		want string
	}{
		{"blocked", func(e *engine.Event) { e.Skipped, e.UnmetRequirements = true, []string{"exec#x"} }, "<3>"},
		{"skipped by control", func(e *engine.Event) { e.Skipped = true }, "<6>"},
		{"a noop change", func(e *engine.Event) { e.Changed, e.Noop = true, true }, "<5>"},
		{"stable", func(*engine.Event) {}, "<6>"},
		{"a standing change", func(e *engine.Event) { e.PreviousStanding, e.Standing = status.Failed, status.Converged }, "<6>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			t.Setenv("JOURNAL_STREAM", "8:1")
			p := eventlog.NewPrinter(&b, eventlog.Options{Watch: true, Verbose: true})
			p.Event(ev(tc.set))
			if got := b.String(); len(got) < 3 || got[:3] != tc.want {
				t.Errorf("line %q, want priority %s", got, tc.want)
			}
		})
	}
}

// TestResultLines: the result lines ExampleWriteResult does not show.
func TestResultLines(t *testing.T) {
	for _, tc := range []struct {
		name string
		ev   engine.Event
		want string
	}{
		{"refreshed", engine.Event{Type: "service", Name: "web", Changed: true, Refreshed: true}, "WARN  service#web refreshed ensure= runtime=0s provider=\n"},
		{"skipped", engine.Event{Type: "exec", Name: "x", Skipped: true}, "WARN  exec#x skipped ensure= runtime=0s provider=\n"},
		{"noop says what it would do", engine.Event{Type: "file", Name: "/a", Changed: true, Noop: true, NoopMessage: `would write "x"`},
			"WARN  file#/a changed ensure= runtime=0s provider= noop=\"would write \\\"x\\\"\"\n"},
		{"runtime truncated to the millisecond", engine.Event{Type: "file", Name: "/a", Duration: 1999999}, "INFO  file#/a stable ensure= runtime=1ms provider=\n"},
		{"errors joined", engine.Event{Type: "file", Name: "/a", Failed: true, Error: []string{"a", "b"}}, "ERROR file#/a failed ensure= runtime=0s provider= errors=\"a, b\"\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			eventlog.WriteResult(&b, &tc.ev)
			if b.String() != tc.want {
				t.Errorf("got  %q\nwant %q", b.String(), tc.want)
			}
		})
	}
}
