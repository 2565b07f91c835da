package eventlog

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/reactive-ccm/ccm/internal/termsafe"
)

// TimeFormat stamps every human line, events and logs alike.
const TimeFormat = "15:04:05.000"

// UnderJournal reports whether stdout and stderr go to the journal
// (systemd sets JOURNAL_STREAM): lines then carry their priority and
// leave the time to the journal.
func UnderJournal() bool { return os.Getenv("JOURNAL_STREAM") != "" }

// LogHandler writes one line per record in the style of the event lines
// ("15:04:05.000 warn      message key=value"): time, level padded like
// the event verbs, message, then key=value attributes. Under journald
// the time is left out, since the journal stamps every line, and each
// line starts with its priority.
type LogHandler struct {
	mu      *sync.Mutex
	w       io.Writer
	level   slog.Level
	journal bool
	// prefix holds the attributes and group added with WithAttrs and
	// WithGroup, already formatted.
	prefix string
	group  string
}

// NewLogHandler writes records of level and above to w; journal selects
// the journal's form (see UnderJournal).
func NewLogHandler(w io.Writer, level slog.Level, journal bool) *LogHandler {
	return &LogHandler{mu: &sync.Mutex{}, w: w, level: level, journal: journal}
}

// WithWriter is h writing to w.
func (h *LogHandler) WithWriter(w io.Writer) *LogHandler {
	c := *h
	c.w = w
	return &c
}

func (h *LogHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= h.level }

func (h *LogHandler) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	switch {
	case h.journal:
		fmt.Fprintf(&b, "<%d>", journalPriority(r.Level))
	case !r.Time.IsZero():
		b.WriteString(r.Time.Format(TimeFormat) + " ")
	}
	fmt.Fprintf(&b, "%-9s %s%s", strings.ToLower(r.Level.String()), termsafe.OneLine(r.Message), h.prefix)
	r.Attrs(func(a slog.Attr) bool {
		writeAttr(&b, h.group, a)
		return true
	})
	b.WriteByte('\n')
	h.mu.Lock()
	defer h.mu.Unlock()
	_, err := io.WriteString(h.w, b.String())
	return err
}

func (h *LogHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	c := *h
	var b strings.Builder
	for _, a := range attrs {
		writeAttr(&b, h.group, a)
	}
	c.prefix += b.String()
	return &c
}

func (h *LogHandler) WithGroup(name string) slog.Handler {
	c := *h
	c.group += name + "."
	return &c
}

// writeAttr writes " key=value", quoting values that need it and
// flattening groups into dotted keys.
func writeAttr(b *strings.Builder, group string, a slog.Attr) {
	v := a.Value.Resolve()
	if a.Equal(slog.Attr{}) {
		return
	}
	if v.Kind() == slog.KindGroup {
		for _, g := range v.Group() {
			writeAttr(b, group+a.Key+".", g)
		}
		return
	}
	s := v.String()
	if v.Kind() == slog.KindTime {
		s = v.Time().Format(time.RFC3339)
	}
	if s == "" || strings.ContainsFunc(s, needsQuote) {
		s = strconv.Quote(s)
	}
	b.WriteString(" " + group + a.Key + "=" + s)
}

// needsQuote reports whether r in a value makes it need quotes: a space,
// a quote or = would misplace where the value ends, and quoting escapes
// characters that are not printable (a newline, an escape sequence).
func needsQuote(r rune) bool { return r == ' ' || r == '"' || r == '=' || !unicode.IsPrint(r) }

// journalPriority maps a level to a syslog priority (sd-daemon.h).
func journalPriority(l slog.Level) int {
	switch {
	case l >= slog.LevelError:
		return prioError
	case l >= slog.LevelWarn:
		return prioWarning
	case l >= slog.LevelInfo:
		return prioInfo
	}
	return prioDebug
}
