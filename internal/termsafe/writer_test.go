package termsafe_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/reactive-ccm/ccm/internal/termsafe"
)

// TestWriterHoldsSplitCharacters: a character cut between writes is
// written whole once its end comes, and a start that never gets its end
// is escaped as the bytes it is.
func TestWriterHoldsSplitCharacters(t *testing.T) {
	for _, tc := range []struct {
		name   string
		writes []string
		want   string
	}{
		{"four bytes over three writes", []string{"a\xf0\x9f", "\x98", "\x80b"}, "a😀b"},
		{"a start followed by text", []string{"a\xf0", "bc"}, `a\xf0bc`},
		{"a start followed by another start", []string{"\xe2", "\xe2\x86\x92"}, `\xe2→`},
		{"a continuation byte alone", []string{"\x86a"}, `\x86a`},
		{"an empty write in between", []string{"\xe2\x86", "", "\x92"}, "→"},
		{"escapes and text in one write", []string{"ok\x1b[31mred\x1b[0m\n"}, `ok\x1b[31mred\x1b[0m` + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			w := termsafe.NewWriter(&b)
			for _, s := range tc.writes {
				if _, err := w.Write([]byte(s)); err != nil {
					t.Fatal(err)
				}
			}
			if b.String() != tc.want {
				t.Fatalf("wrote %q, want %q", b.String(), tc.want)
			}
		})
	}
}

// broken fails every write, as a closed pipe does.
type broken struct{}

func (broken) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

// TestWriterReportsWhatItWasGiven: the count is of what the caller
// wrote, escaped or not, and the error is the writer's.
func TestWriterReportsWhatItWasGiven(t *testing.T) {
	for _, s := range []string{"plain\n", "\x1b[2J\n"} {
		n, err := termsafe.NewWriter(broken{}).Write([]byte(s))
		if n != len(s) || err == nil || err.Error() != "broken pipe" {
			t.Errorf("Write(%q) = %d, %v", s, n, err)
		}
	}
}

// TestWriterConcurrentLines: lines written at once from many goroutines
// come out whole; run with -race.
func TestWriterConcurrentLines(t *testing.T) {
	var b bytes.Buffer
	w := termsafe.NewWriter(&b)
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			for range 50 {
				_, _ = w.Write([]byte(strings.Repeat(string(rune('a'+i)), 20) + "→\x1b\n"))
			}
		})
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 16*50 {
		t.Fatalf("%d lines", len(lines))
	}
	for _, l := range lines {
		if len(l) != 20+len("→")+len(`\x1b`) || strings.Trim(l[:20], l[:1]) != "" || !strings.HasSuffix(l, `→\x1b`) {
			t.Fatalf("a line mixed with another: %q", l)
		}
	}
}

// TestWidthOffATerminal: only a terminal has a width.
func TestWidthOffATerminal(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for name, out := range map[string]io.Writer{"a buffer": &bytes.Buffer{}, "a file": f, "a pipe": w} {
		if width, ok := termsafe.Width(out); ok || width != 0 {
			t.Errorf("%s: width %d, terminal %t", name, width, ok)
		}
	}
}
