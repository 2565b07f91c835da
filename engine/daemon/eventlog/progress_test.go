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

// Off a terminal, a run is logged once it has gone on for longRun, then
// at most every longRun, and no more once it ended; nothing is drawn.
func TestProgressLogsLongRunsOffATerminal(t *testing.T) {
	c := clock.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	var out, logs bytes.Buffer
	p := newProgress(&out, true, 2, slog.New(NewLogHandler(&logs, slog.LevelInfo, true)), c)
	if p.Output(&out) != &out {
		t.Fatal("off a terminal the event lines must go straight to their writer")
	}
	p.started("exec#migrate")
	p.started("file#/etc/motd")
	p.observed(engine.Observation{Event: &engine.Event{Type: "file", Name: "/etc/motd"}})
	lines := func() []string { return strings.Split(strings.TrimSpace(logs.String()), "\n") }
	for _, step := range []struct {
		advance time.Duration
		want    int
	}{{9 * time.Second, 0}, {time.Second, 1}, {5 * time.Second, 1}, {5 * time.Second, 2}, {9 * time.Second, 2}} {
		c.Advance(step.advance)
		p.tick()
		if got := len(lines()); logs.Len() == 0 && step.want != 0 || logs.Len() > 0 && got != step.want {
			t.Fatalf("after %s more: %d log lines, want %d:\n%s", step.advance, got, step.want, logs.String())
		}
	}
	if l := lines(); l[0] != "<6>info      still running resource=exec#migrate for=10s" || l[1] != "<6>info      still running resource=exec#migrate for=20s" {
		t.Fatalf("log lines: %q", l)
	}
	p.observed(engine.Observation{Event: &engine.Event{Type: "exec", Name: "migrate"}})
	c.Advance(time.Minute)
	p.tick()
	if len(lines()) != 2 || out.Len() != 0 {
		t.Fatalf("after the run ended: logs %q, output %q", logs.String(), out.String())
	}
}

func TestFitCutsTheStatusLineToTheTerminal(t *testing.T) {
	if got := fit("[1/2] exec#migrate running 3.2s", 20); got != "[1/2] exec#migrate…" || len([]rune(got)) != 19 {
		t.Fatalf("fit: %q", got)
	}
	if got := fit("[1/2] x running 0.1s", 0); got != "[1/2] x running 0.1s" {
		t.Fatalf("unknown width: %q", got)
	}
}

// A resource's name is data from the manifest or the host: the status
// line shows its control characters escaped, never acted on.
func TestStatusLineEscapesNames(t *testing.T) {
	c := clock.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	var logs bytes.Buffer
	p := newProgress(&bytes.Buffer{}, true, 1, slog.New(NewLogHandler(&logs, slog.LevelInfo, true)), c)
	p.started("exec#evil\x1b]0;owned\x07\nline")
	c.Advance(time.Second)
	line, _ := p.look(c.Now())
	if strings.ContainsAny(line, "\x1b\x07\n") || !strings.Contains(line, `exec#evil\x1b]0;owned\x07\nline running`) {
		t.Fatalf("status line %q", line)
	}
}
