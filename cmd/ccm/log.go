package main

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

	"github.com/spf13/cobra"
)

// timeFormat stamps every human line, events and logs alike.
const timeFormat = "15:04:05.000"

// setupLogging sends logs to stderr at the requested level, in the style
// of the event lines: "15:04:05.000 warn      message key=value". Under
// journald (JOURNAL_STREAM set) the time is left out, since the journal
// stamps every line, and each line starts with its priority.
func setupLogging(cmd *cobra.Command) (*slog.Logger, error) {
	name, err := levelName(cmd)
	if err != nil {
		return nil, err
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(name)); err != nil {
		return nil, usage(fmt.Errorf("--log-level %q: want debug, info, warn or error", name))
	}
	log := slog.New(newLineHandler(stderr, level, underJournal()))
	slog.SetDefault(log)
	return log, nil
}

// levelName is --log-level, or the level upstream's --debug or --info
// names; naming two different levels is an error.
func levelName(cmd *cobra.Command) (string, error) {
	name, _ := cmd.Flags().GetString("log-level")
	for _, alias := range []string{"debug", "info"} {
		if on, _ := cmd.Flags().GetBool(alias); !on || name == alias {
			continue
		}
		if cmd.Flags().Changed("log-level") {
			return "", usage(fmt.Errorf("--%s and --log-level %s name different levels", alias, name))
		}
		name = alias
		if alias == "debug" {
			break
		}
	}
	return name, nil
}

// underJournal reports whether stdout and stderr go to the journal.
func underJournal() bool { return os.Getenv("JOURNAL_STREAM") != "" }

// lineHandler writes one line per record: time, level padded like the
// event verbs, message, then key=value attributes.
type lineHandler struct {
	mu      *sync.Mutex
	w       io.Writer
	level   slog.Level
	journal bool
	// prefix holds the attributes and group added with WithAttrs and
	// WithGroup, already formatted.
	prefix string
	group  string
}

func newLineHandler(w io.Writer, level slog.Level, journal bool) *lineHandler {
	return &lineHandler{mu: &sync.Mutex{}, w: w, level: level, journal: journal}
}

// withWriter is h writing to w.
func (h *lineHandler) withWriter(w io.Writer) *lineHandler {
	c := *h
	c.w = w
	return &c
}

func (h *lineHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= h.level }

func (h *lineHandler) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	switch {
	case h.journal:
		fmt.Fprintf(&b, "<%d>", journalPriority(r.Level))
	case !r.Time.IsZero():
		b.WriteString(r.Time.Format(timeFormat) + " ")
	}
	fmt.Fprintf(&b, "%-9s %s%s", strings.ToLower(r.Level.String()), oneLine(r.Message), h.prefix)
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

func (h *lineHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	c := *h
	var b strings.Builder
	for _, a := range attrs {
		writeAttr(&b, h.group, a)
	}
	c.prefix += b.String()
	return &c
}

func (h *lineHandler) WithGroup(name string) slog.Handler {
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
		return 3
	case l >= slog.LevelWarn:
		return 4
	case l >= slog.LevelInfo:
		return 6
	}
	return 7
}
