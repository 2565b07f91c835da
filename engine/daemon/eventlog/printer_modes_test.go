package eventlog_test

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/eventlog"
	"github.com/reactive-ccm/ccm/engine/enginetest"
)

// TestWatchLinesAreWrittenAtOnce: in watch mode a line reaches the
// reader as the event happens, not at the end of a batch.
func TestWatchLinesAreWrittenAtOnce(t *testing.T) {
	t.Setenv("JOURNAL_STREAM", "")
	for _, o := range []eventlog.Options{{Watch: true}, {Watch: true, JSON: true}} {
		var b enginetest.Logs
		p := eventlog.NewPrinter(&b, o)
		p.Event(ev(func(e *engine.Event) { e.Changed = true }))
		if !strings.Contains(b.String(), "/etc/motd") {
			t.Errorf("JSON %t: the line was held: %q", o.JSON, b.String())
		}
	}
}

// TestJSONShowsEveryCheckedEvent: JSON lines carry every checked event,
// stable ones included, whatever Verbose says.
func TestJSONShowsEveryCheckedEvent(t *testing.T) {
	out := print(t, eventlog.Options{JSON: true}, ev(func(*engine.Event) {}), ev(func(e *engine.Event) { e.Skipped = true }))
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("lines %q", lines)
	}
	var first map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil || first["name"] != "/etc/motd" || first["changed"] != false {
		t.Fatalf("first line %v, %v", first, err)
	}
}

// TestConcurrentEventsStayWhole: the engine's workers emit at once; each
// line comes out whole. Run with -race.
func TestConcurrentEventsStayWhole(t *testing.T) {
	t.Setenv("JOURNAL_STREAM", "")
	var b enginetest.Logs
	p := eventlog.NewPrinter(&b, eventlog.Options{Watch: true})
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				p.Event(ev(func(e *engine.Event) { e.Changed, e.Changes = true, mode }))
			}
		})
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 400 {
		t.Fatalf("%d lines", len(lines))
	}
	for _, l := range lines {
		if !strings.HasSuffix(l, " changed   file#/etc/motd: mode 0600 → 0644 (drift, 1.5ms)") {
			t.Fatalf("a line mixed with another: %q", l)
		}
	}
}
