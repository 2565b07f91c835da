package eventlog

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/internal/termsafe"
)

// Options shape a Printer's output.
type Options struct {
	// JSON prints every event as a JSON line, and the summaries as JSON.
	JSON bool
	// Watch starts each line with the time and writes it at once.
	Watch bool
	// Verbose also prints the checks that found nothing to do.
	Verbose bool
}

// Printer writes the events the engine emits, for people or as JSON
// lines. In watch mode each human line starts with the time, in the
// format log lines use; under journald the journal stamps lines instead
// and each line carries its priority. Its methods are safe for
// concurrent use.
type Printer struct {
	mu      sync.Mutex
	w       io.Writer
	json    bool
	watch   bool
	verbose bool
	journal bool
	enc     *json.Encoder
	tally   tally
	// batch holds a one-shot run's lines (see batchWriter); nil in watch
	// mode.
	batch *batchWriter
	// buf holds the line being written in watch mode.
	buf []byte
}

// NewPrinter prints to w as o says.
func NewPrinter(w io.Writer, o Options) *Printer {
	w = &dropWriter{w: w}
	var batch *batchWriter
	if !o.Watch {
		batch = newBatchWriter(w, batchDelay)
		w = batch
	}
	return &Printer{w: w, json: o.JSON, watch: o.Watch, verbose: o.Verbose, journal: UnderJournal(), enc: json.NewEncoder(w), batch: batch}
}

// Flush writes out the lines a one-shot run holds.
func (p *Printer) Flush() {
	if p.batch != nil {
		p.batch.Flush()
	}
}

// dropWriter passes writes on until one fails (a closed pipe), warns
// once, and drops every write after: the engine goes on without a
// reader of its events.
type dropWriter struct {
	w       io.Writer
	dropped bool
}

func (d *dropWriter) Write(p []byte) (int, error) {
	if d.dropped {
		return len(p), nil
	}
	if _, err := d.w.Write(p); err != nil {
		d.dropped = true
		slog.Warn("cannot write events to standard output; dropping them from now on", "error", err)
	}
	return len(p), nil
}

// Event prints ev (engine.Options.Events).
func (p *Printer) Event(ev *engine.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.tally.add(ev)
	if p.json {
		// Upstream's event stream has no record of a resource that was
		// not checked; the summary counts it as skipped.
		if !ev.Unchecked {
			// dropWriter reports a failed write.
			_ = p.enc.Encode(ev)
		}
		return
	}
	line := humanLine(ev, p.verbose)
	if line == "" {
		return
	}
	if p.watch {
		line += durationNote(ev)
	} else if ev.Changed || ev.Refreshed {
		line += fmt.Sprintf(" (%s)", ev.Duration.Round(time.Microsecond))
	}
	p.line(priorityOf(ev), ev.Timestamp, line)
	for _, c := range ev.Changes {
		if c.Diff != "" {
			fmt.Fprint(p.w, indent(c.Diff))
		}
	}
}

// line writes one human line: with the time in watch mode, with the
// journal's priority prefix under journald.
func (p *Printer) line(priority int, at time.Time, text string) {
	text = termsafe.OneLine(text)
	switch {
	case p.journal:
		fmt.Fprintf(p.w, "<%d>%s\n", priority, text)
	case p.watch:
		// A daemon prints a line per repair: built in a buffer kept
		// for the next, without fmt.
		p.buf = at.AppendFormat(p.buf[:0], TimeFormat)
		p.buf = append(append(append(p.buf, ' '), text...), '\n')
		_, _ = p.w.Write(p.buf) // dropWriter reports a failed write
	default:
		fmt.Fprintln(p.w, text)
	}
}
