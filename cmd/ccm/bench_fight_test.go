package main_test

import (
	"bufio"
	"encoding/json"
	"io"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
)

// line is one line ccm printed, an event on stdout or a log on stderr.
type line struct {
	at    time.Time
	event *engine.Event
}

// lines sends every line r yields, parsing events.
func lines(r io.Reader, out chan<- line) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		l := line{at: time.Now()}
		var ev engine.Event
		if json.Unmarshal(sc.Bytes(), &ev) == nil && ev.Protocol == engine.EventProtocol {
			l.event = &ev
		}
		out <- l
	}
}

// BenchmarkFight runs `ccm run --watch --json` on one file that another
// writer rewrites every 100ms, with the default contest policy, and
// reports repairs and printed lines (events and logs) per minute before
// the contest is reported and over the minute after.
func BenchmarkFight(b *testing.B) {
	for range b.N {
		dir := b.TempDir()
		path := filepath.Join(dir, "fought.conf")
		cmd := exec.Command(bin, "run", "--watch", "--json", "--state-dir", b.TempDir(), manifest(b, dir, foughtFile))
		out := make(chan line, 1<<16)
		stderr, err := cmd.StderrPipe()
		if err != nil {
			b.Fatal(err)
		}
		go lines(startPiped(b, cmd, cmd.StdoutPipe, syscall.SIGTERM), out)
		go lines(stderr, out)
		for l := range out {
			if l.event != nil && l.event.Trigger == engine.TriggerStartup {
				break
			}
		}
		start := time.Now()
		stop := writer(b, path, 100*time.Millisecond)
		before := tallyUntil(out, start, func(l line) bool { return l.event != nil && l.event.Contested }, 2*time.Minute)
		after := tallyUntil(out, time.Now(), func(line) bool { return false }, time.Minute)
		stop()
		b.ReportMetric(before.repairsPerMinute(), "repairs/min-before")
		b.ReportMetric(before.linesPerMinute(), "lines/min-before")
		b.ReportMetric(before.elapsed.Seconds(), "s-to-contested")
		b.ReportMetric(after.repairsPerMinute(), "repairs/min-after")
		b.ReportMetric(after.linesPerMinute(), "lines/min-after")
	}
}

// tally is what ccm printed over a period.
type tally struct {
	repairs, lines int
	elapsed        time.Duration
}

func (t tally) repairsPerMinute() float64 { return float64(t.repairs) / t.elapsed.Minutes() }
func (t tally) linesPerMinute() float64   { return float64(t.lines) / t.elapsed.Minutes() }

// tallyUntil tallies the lines from out until last accepts one (included) or
// limit passes since start.
func tallyUntil(out <-chan line, start time.Time, last func(line) bool, limit time.Duration) tally {
	var t tally
	deadline := time.After(time.Until(start.Add(limit)))
	for {
		select {
		case l := <-out:
			t.lines++
			if l.event != nil && l.event.Changed {
				t.repairs++
			}
			if last(l) {
				t.elapsed = l.at.Sub(start)
				return t
			}
		case <-deadline:
			t.elapsed = limit
			return t
		}
	}
}
