package eventlog_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine/daemon/eventlog"
)

// secretToken resolves itself to a redacted form, as a LogValuer does.
type secretToken string

func (secretToken) LogValue() slog.Value { return slog.StringValue("[redacted]") }

// TestLogLineAttributes: each attribute as key=value on the one line,
// quoted where its text would misplace where it ends or act on a
// terminal.
func TestLogLineAttributes(t *testing.T) {
	stamp := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tc := range []struct {
		name  string
		attrs []any
		want  string
	}{
		{"a plain value", []any{"k", "v"}, " k=v"},
		{"an equals sign", []any{"k", "a=b"}, ` k="a=b"`},
		{"a quote", []any{"k", `say "hi"`}, ` k="say \"hi\""`},
		{"an escape sequence", []any{"k", "\x1b[2J"}, ` k="\x1b[2J"`},
		{"a newline", []any{"k", "a\nb"}, ` k="a\nb"`},
		{"unicode is printable", []any{"k", "café→"}, " k=café→"},
		{"a time in RFC 3339", []any{"at", stamp}, " at=2026-01-02T03:04:05Z"},
		{"a duration", []any{"took", 1500 * time.Millisecond}, " took=1.5s"},
		{"a group flattened", []any{slog.Group("req", "id", 7, slog.Group("peer", "ip", "::1"))}, " req.id=7 req.peer.ip=::1"},
		{"an empty attribute dropped", []any{slog.Attr{}, "k", 1}, " k=1"},
		{"a LogValuer resolved", []any{"token", secretToken("s3cr3t")}, " token=[redacted]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			slog.New(eventlog.NewLogHandler(&b, slog.LevelInfo, true)).Info("m", tc.attrs...)
			if want := "<6>info      m" + tc.want + "\n"; b.String() != want {
				t.Errorf("got  %q\nwant %q", b.String(), want)
			}
		})
	}
}

// TestLogLevels: which records are written, and the journal priority
// and name each level gets.
func TestLogLevels(t *testing.T) {
	for _, tc := range []struct {
		level slog.Level
		want  string
	}{
		{slog.LevelDebug - 4, ""},
		{slog.LevelDebug, "<7>debug     m\n"},
		{slog.LevelInfo, "<6>info      m\n"},
		{slog.LevelInfo + 2, "<6>info+2    m\n"},
		{slog.LevelWarn, "<4>warn      m\n"},
		{slog.LevelError, "<3>error     m\n"},
		{slog.LevelError + 4, "<3>error+4   m\n"},
	} {
		var b bytes.Buffer
		slog.New(eventlog.NewLogHandler(&b, slog.LevelDebug, true)).Log(context.Background(), tc.level, "m")
		if b.String() != tc.want {
			t.Errorf("level %v: got %q, want %q", tc.level, b.String(), tc.want)
		}
	}
}

// TestLogHandlerDerived: handlers made With… or WithWriter keep what the
// one they came from had and leave it unchanged.
func TestLogHandlerDerived(t *testing.T) {
	var first, second bytes.Buffer
	base := eventlog.NewLogHandler(&first, slog.LevelWarn, true)
	moved := base.WithWriter(&second)
	slog.New(base.WithAttrs([]slog.Attr{slog.String("run", "1")})).Warn("a")
	slog.New(moved).Warn("b")
	slog.New(moved).Info("hidden")
	slog.New(base).WithGroup("x").WithGroup("y").Warn("c", "k", 1)
	if want := "<4>warn      a run=1\n<4>warn      c x.y.k=1\n"; first.String() != want {
		t.Errorf("first writer %q, want %q", first.String(), want)
	}
	if want := "<4>warn      b\n"; second.String() != want {
		t.Errorf("second writer %q, want %q", second.String(), want)
	}
}

// TestLogLineTime: outside the journal a line starts with its record's
// time; a record without one has none.
func TestLogLineTime(t *testing.T) {
	var b bytes.Buffer
	h := eventlog.NewLogHandler(&b, slog.LevelInfo, false)
	at := time.Date(2026, 1, 2, 3, 4, 5, 600_000_000, time.Local)
	if err := h.Handle(context.Background(), slog.NewRecord(at, slog.LevelInfo, "m", 0)); err != nil {
		t.Fatal(err)
	}
	if err := h.Handle(context.Background(), slog.NewRecord(time.Time{}, slog.LevelInfo, "n", 0)); err != nil {
		t.Fatal(err)
	}
	if want := "03:04:05.600 info      m\ninfo      n\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
	if strings.Contains(b.String(), "<") {
		t.Error("a priority outside the journal")
	}
}
