package eventlog

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/watchers/clock"
)

// TestProgressLoop: a started Progress ticks on its clock until End,
// which may be called again; off a terminal it logs a long run and
// hands back the logger and writers it was given.
func TestProgressLoop(t *testing.T) {
	c := clock.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	var out, logs bytes.Buffer
	log := slog.New(NewLogHandler(&logs, slog.LevelInfo, true))
	p := StartProgress(&out, true, 3, log, c)
	if p.Logger(log, &out) != log || p.Output(&out) != &out {
		t.Fatal("off a terminal the logger and the event lines must be left as they are")
	}
	var opts engine.Options
	var seen []string
	opts.Observe = func(o engine.Observation) { seen = append(seen, o.Event.ID()) }
	p.Hook(&opts)
	opts.Started("exec#migrate")
	// Each tick re-arms the timer once it is done: waiting for a
	// deadline after now is waiting for the tick.
	ticked := func() {
		now := c.Now()
		if err := c.WaitNext(t.Context(), func(next time.Time) bool { return next.After(now) }); err != nil {
			t.Fatal(err)
		}
	}
	for range int(longRun / time.Second) {
		ticked()
		c.Advance(time.Second)
	}
	ticked()
	p.End()
	p.End()
	if want := "<6>info      still running resource=exec#migrate for=10s\n"; logs.String() != want {
		t.Fatalf("logs %q, want %q", logs.String(), want)
	}
	opts.Observe(engine.Observation{Event: &engine.Event{Type: "exec", Name: "migrate"}})
	if len(seen) != 1 || seen[0] != "exec#migrate" || len(p.running) != 0 || !p.done["exec#migrate"] {
		t.Fatalf("the hook lost an observation: seen %v, running %v, done %v", seen, p.running, p.done)
	}
	if c.Armed() != 0 || out.Len() != 0 {
		t.Fatalf("after End: %d timers armed, output %q", c.Armed(), out.String())
	}
}

// TestStatusLineShowsTheOldestRun: the line names the run going on the
// longest (by name when two began together), how many are done, and how
// many more run.
func TestStatusLineShowsTheOldestRun(t *testing.T) {
	c := clock.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	p := newProgress(&bytes.Buffer{}, true, 5, slog.New(slog.DiscardHandler), c)
	if line, _ := p.look(c.Now()); line != "" {
		t.Fatalf("a status line with nothing running: %q", line)
	}
	p.started("file#/b")
	p.started("file#/a")
	c.Advance(1500 * time.Millisecond)
	p.started("exec#new")
	p.observed(engine.Observation{Event: &engine.Event{Type: "pkg", Name: "zsh"}})
	c.Advance(200 * time.Millisecond)
	line, long := p.look(c.Now())
	if want := "[1/5] file#/a running 1.7s (+2 more)"; line != want || len(long) != 0 {
		t.Fatalf("line %q, long %v; want %q", line, long, want)
	}
	p.observed(engine.Observation{Event: &engine.Event{Type: "file", Name: "/a"}})
	p.observed(engine.Observation{Event: &engine.Event{Type: "file", Name: "/b"}})
	if line, _ := p.look(c.Now()); !strings.HasPrefix(line, "[3/5] exec#new running 0.2s") || strings.Contains(line, "more") {
		t.Fatalf("line %q", line)
	}
}
