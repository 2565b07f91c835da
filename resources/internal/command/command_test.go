package command_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/resources/internal/command"
)

// lines records what OnLine receives, as "stream: line".
type lines struct {
	mu  sync.Mutex
	got []string
}

func (l *lines) add(stream, line string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.got = append(l.got, stream+": "+line)
}

func TestOutput(t *testing.T) {
	const script = "echo out; echo err >&2; printf tail"
	tests := []struct {
		name             string
		discard, online  bool
		wantOut, wantErr string
		wantLines        []string
	}{
		{"kept by default", false, false, "out\ntail", "err\n", nil},
		{"kept and handed over as lines", false, true, "out\ntail", "err\n", []string{"stdout: out", "stderr: err", "stdout: tail"}},
		{"discarded but handed over as lines", true, true, "", "", []string{"stdout: out", "stderr: err", "stdout: tail"}},
		{"discarded entirely", true, false, "", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var l lines
			c := command.Cmd{Name: "sh", Args: []string{"-c", script}, Discard: tt.discard}
			if tt.online {
				c.OnLine = l.add
			}
			res, err := command.Run(t.Context(), c)
			if err != nil || res.ExitCode != 0 {
				t.Fatalf("run: exit %d, %v", res.ExitCode, err)
			}
			if string(res.Stdout) != tt.wantOut || string(res.Stderr) != tt.wantErr {
				t.Errorf("kept stdout %q stderr %q, want %q and %q", res.Stdout, res.Stderr, tt.wantOut, tt.wantErr)
			}
			// The streams are read concurrently: only the order within one
			// stream is fixed.
			for _, want := range tt.wantLines {
				if !slices.Contains(l.got, want) {
					t.Errorf("lines %q lack %q", l.got, want)
				}
			}
			if len(l.got) != len(tt.wantLines) {
				t.Errorf("lines %q, want %q", l.got, tt.wantLines)
			}
		})
	}
}

// TestLongLineIsHandedOverInPieces: output without newlines is not held
// whole while waiting for one.
func TestLongLineIsHandedOverInPieces(t *testing.T) {
	var l lines
	res, err := command.Run(t.Context(), command.Cmd{
		Name: "sh", Args: []string{"-c", "head -c 200000 /dev/zero | tr '\\0' x"}, Discard: true, OnLine: l.add,
	})
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("run: exit %d, %v", res.ExitCode, err)
	}
	total := 0
	for _, line := range l.got {
		text := strings.TrimPrefix(line, "stdout: ")
		if len(text) > 64<<10 {
			t.Errorf("a piece of %d bytes, want at most 64 KiB", len(text))
		}
		total += len(text)
	}
	if total != 200000 || len(l.got) != 4 {
		t.Errorf("%d bytes in %d pieces, want 200000 in 4", total, len(l.got))
	}
}

// BenchmarkChattyCommand runs a command printing 8 MiB in 34-byte lines,
// keeping its output or only seeing its lines. B/op shows what keeping
// costs; what remains when discarding is each line's string for OnLine,
// garbage as soon as the callback returns.
func BenchmarkChattyCommand(b *testing.B) {
	for _, bb := range []struct {
		name    string
		discard bool
	}{{"kept", false}, {"discarded", true}} {
		b.Run(bb.name, func(b *testing.B) {
			c := command.Cmd{
				Name: "sh", Args: []string{"-c", "yes 'a line of output, as builds print' | head -c 8388608"},
				Discard: bb.discard, OnLine: func(string, string) {},
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := command.Run(b.Context(), c); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestTimeoutStopsWithSIGTERMThenSIGKILL: a program stopped by its
// timeout gets SIGTERM, so a handler may clean up, and SIGKILL only when
// it is still there after the grace period; the error says which.
func TestTimeoutStopsWithSIGTERMThenSIGKILL(t *testing.T) {
	tests := []struct {
		name, script string
		grace        time.Duration
		cleaned      bool
		want         string
	}{
		{"a handler runs", `trap 'echo cleaned > "$0"; exit 3' TERM; sleep 1000 & wait`, time.Hour, true,
			"timed out after 100ms; its process group got SIGTERM and exited within the 1h0m0s grace period"},
		{"SIGTERM ignored", `trap '' TERM; sleep 1000`, 100 * time.Millisecond, false,
			"timed out after 100ms; its process group got SIGTERM, then SIGKILL when it had not exited after the 100ms grace period"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			marker := filepath.Join(t.TempDir(), "cleaned")
			_, err := command.Run(t.Context(), command.Cmd{Name: "sh", Args: []string{"-c", tt.script, marker}, Timeout: 100 * time.Millisecond, Grace: tt.grace})
			if !errors.Is(err, command.ErrTimeout) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
			if _, serr := os.Stat(marker); (serr == nil) != tt.cleaned {
				t.Fatalf("the handler's file exists: %v, want %v", serr == nil, tt.cleaned)
			}
		})
	}
}

// TestMaxOutputKeepsTheStartOnly: a program printing without end is read
// to its end and only the start of its output kept.
func TestMaxOutputKeepsTheStartOnly(t *testing.T) {
	res, err := command.Run(t.Context(), command.Cmd{Name: "sh", Args: []string{"-c", "head -c 10000000 /dev/zero"}, MaxOutput: 4096})
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("run: exit %d, %v", res.ExitCode, err)
	}
	if len(res.Stdout) != 4096 || !res.Truncated {
		t.Fatalf("kept %d bytes (truncated %v), want the first 4096", len(res.Stdout), res.Truncated)
	}
}
