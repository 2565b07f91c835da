package eventlog

import (
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/internal/termsafe"
	"github.com/reactive-ccm/ccm/watchers/clock"
)

// Progress of a one-shot run. On a terminal, one status line stays under
// the event lines while work is pending, redrawn every drawEvery and
// cleared at the end:
//
//	[812/1000] exec#migrate running 3.2s (+2 more)
//
// Elsewhere (a pipe, a file, the journal) and with --json nothing is
// drawn; a resource running for longRun is logged, again every longRun at
// most, so a log shows the run is alive.
const (
	drawEvery = 100 * time.Millisecond
	longRun   = 10 * time.Second
)

// Progress follows the engine's runs (Started and Observe) for the
// status line and the long-run log lines.
type Progress struct {
	clock clock.Clock
	log   *slog.Logger
	total int
	every time.Duration

	mu      sync.Mutex
	done    map[string]bool
	running map[string]*running

	// wmu orders the status line and the event lines on the terminal;
	// nil term: off a terminal.
	wmu   sync.Mutex
	term  io.Writer
	width int
	drawn bool

	stopOnce sync.Once
	stop     chan struct{}
	stopped  chan struct{}
}

// running is one run under way.
type running struct {
	since, logged time.Time
}

// StartProgress follows a run of total resources whose events go to out.
// The status line is drawn when draw asks for it (not for JSON lines),
// out is a terminal and the journal is not reading it. End stops it.
func StartProgress(out io.Writer, draw bool, total int, log *slog.Logger, c clock.Clock) *Progress {
	p := newProgress(out, draw, total, log, c)
	go p.loop()
	return p
}

// newProgress is a progress whose ticks are the caller's to make.
func newProgress(out io.Writer, draw bool, total int, log *slog.Logger, c clock.Clock) *Progress {
	p := &Progress{clock: c, log: log, total: total, every: time.Second,
		done: make(map[string]bool, total), running: map[string]*running{},
		stop: make(chan struct{}), stopped: make(chan struct{})}
	raw := out
	if tw, ok := out.(*termsafe.Writer); ok {
		// The status line's own escape sequences must reach the terminal;
		// what it shows of resources' names is escaped in look.
		raw = tw.Unescaped()
	}
	if width, ok := termsafe.Width(raw); ok && draw && !UnderJournal() {
		p.term, p.width, p.every = raw, width, drawEvery
	}
	return p
}

// Hook has the engine tell p of every run, besides what opts observed.
func (p *Progress) Hook(opts *engine.Options) {
	observe := opts.Observe
	opts.Started = p.started
	opts.Observe = func(o engine.Observation) {
		p.observed(o)
		if observe != nil {
			observe(o)
		}
	}
}

func (p *Progress) started(id string) {
	now := p.clock.Now()
	p.mu.Lock()
	p.running[id] = &running{since: now, logged: now}
	p.mu.Unlock()
}

func (p *Progress) observed(o engine.Observation) {
	id := o.Event.ID()
	p.mu.Lock()
	delete(p.running, id)
	p.done[id] = true
	p.mu.Unlock()
}

// Output is where lines for w go: through p when the status line is
// drawn, so that they never mix with it.
func (p *Progress) Output(w io.Writer) io.Writer {
	if p.term == nil {
		return w
	}
	return progressWriter{p, w}
}

// Logger is log writing through p (see Output), when log's handler is
// a LogHandler.
func (p *Progress) Logger(log *slog.Logger, stderr io.Writer) *slog.Logger {
	h, ok := log.Handler().(*LogHandler)
	if p.term == nil || !ok {
		return log
	}
	return slog.New(h.WithWriter(p.Output(stderr)))
}

type progressWriter struct {
	p *Progress
	w io.Writer
}

// Write clears the status line and writes b in its place; the next tick
// draws the status line again below.
func (w progressWriter) Write(b []byte) (int, error) {
	p := w.p
	p.wmu.Lock()
	defer p.wmu.Unlock()
	p.clearLocked()
	return w.w.Write(b)
}

func (p *Progress) clearLocked() {
	if p.drawn {
		// The error is the writer's to report (see dropWriter).
		_, _ = io.WriteString(p.term, "\r\x1b[K")
		p.drawn = false
	}
}

func (p *Progress) loop() {
	defer close(p.stopped)
	t := p.clock.NewTimer(p.every)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C():
			p.tick()
			t.Reset(p.every)
		}
	}
}

// tick draws the status line, or logs the runs that went on for longRun.
func (p *Progress) tick() {
	now := p.clock.Now()
	line, long := p.look(now)
	if p.term == nil {
		for _, r := range long {
			p.log.Info("still running", "resource", r.id, "for", r.d.Round(time.Second).String())
		}
		return
	}
	p.wmu.Lock()
	defer p.wmu.Unlock()
	p.clearLocked()
	if line != "" {
		_, _ = io.WriteString(p.term, line)
		p.drawn = true
	}
}

type longRunning struct {
	id string
	d  time.Duration
}

// look returns the status line ("" when nothing is pending) and the runs
// to log as long-running now.
func (p *Progress) look(now time.Time) (string, []longRunning) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var oldest string
	var long []longRunning
	for id, r := range p.running {
		if oldest == "" || r.since.Before(p.running[oldest].since) || r.since.Equal(p.running[oldest].since) && id < oldest {
			oldest = id
		}
		if now.Sub(r.logged) >= longRun {
			r.logged = now
			long = append(long, longRunning{id, now.Sub(r.since)})
		}
	}
	if oldest == "" {
		return "", long
	}
	name := termsafe.OneLine(termsafe.Escape([]byte(oldest)))
	line := fmt.Sprintf("[%d/%d] %s running %.1fs", len(p.done), p.total, name, now.Sub(p.running[oldest].since).Seconds())
	if n := len(p.running) - 1; n > 0 {
		line += fmt.Sprintf(" (+%d more)", n)
	}
	return fit(line, p.width), long
}

// fit cuts line to the terminal's width, so that it never wraps and a
// carriage return always reaches its start.
func fit(line string, width int) string {
	r := []rune(line)
	if width <= 1 || len(r) < width {
		return line
	}
	return string(r[:width-2]) + "…"
}

// End stops the display and clears the status line; the summary
// follows. It may be called more than once.
func (p *Progress) End() {
	p.stopOnce.Do(func() {
		close(p.stop)
		<-p.stopped
		if p.term != nil {
			p.wmu.Lock()
			p.clearLocked()
			p.wmu.Unlock()
		}
	})
}
