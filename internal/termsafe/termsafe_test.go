package termsafe_test

import (
	"bytes"
	"testing"

	"github.com/reactive-ccm/ccm/internal/termsafe"
)

func TestTerminalWriterEscapesControls(t *testing.T) {
	for _, tc := range []struct {
		name   string
		writes []string
		want   string
	}{
		{"plain text passes", []string{"changed   file#/etc/motd: mode 0600 → 0644\n\tindented\n"}, "changed   file#/etc/motd: mode 0600 → 0644\n\tindented\n"},
		{"an escape sequence", []string{"file#/tmp/\x1b]0;owned\x07 changed\n"}, `file#/tmp/\x1b]0;owned\x07 changed` + "\n"},
		{"carriage return and DEL", []string{"a\rb\x7fc\n"}, `a\x0db\x7fc` + "\n"},
		{"a C1 control", []string{"a\u009b31mb\n"}, `a\u009b31mb` + "\n"},
		{"bytes that are not UTF-8", []string{"a\xff\x9bb\n"}, `a\xff\x9bb` + "\n"},
		{"a character split between writes", []string{"mode \xe2", "\x86\x92 0644\n"}, "mode → 0644\n"},
		{"a C1 control split between writes", []string{"a\xc2", "\x9b31m\n"}, `a\u009b31m` + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			w := termsafe.NewWriter(&b)
			for _, s := range tc.writes {
				if n, err := w.Write([]byte(s)); n != len(s) || err != nil {
					t.Fatalf("Write = %d, %v", n, err)
				}
			}
			if b.String() != tc.want {
				t.Fatalf("wrote %q, want %q", b.String(), tc.want)
			}
		})
	}
}

func TestOneLine(t *testing.T) {
	if got := termsafe.OneLine("failed    file#/a: x\n<0>forged\tcolumn"); got != `failed    file#/a: x\n<0>forged\tcolumn` {
		t.Fatalf("oneLine = %q", got)
	}
}

func TestEscapeAndUnescaped(t *testing.T) {
	if got := termsafe.Escape([]byte("\x1b[2Ja\tb\n")); got != `\x1b[2Ja`+"\tb\n" {
		t.Errorf("Escape = %q", got)
	}
	var b bytes.Buffer
	w := termsafe.NewWriter(&b)
	if _, err := w.Unescaped().Write([]byte("\r\x1b[K")); err != nil || b.String() != "\r\x1b[K" {
		t.Errorf("Unescaped passed %q, %v", b.String(), err)
	}
}

// A line that needs no escaping, non-ASCII text included (an event's
// arrow), is passed on without building an escaped copy: it is written
// for every event a daemon prints.
func TestSafeTextIsPassedOnWithoutCopying(t *testing.T) {
	var b bytes.Buffer
	b.Grow(1 << 10)
	w := termsafe.NewWriter(&b)
	line := []byte("changed   file#/etc/motd: content → \"content\", © 2026\n")
	allocs := testing.AllocsPerRun(100, func() {
		b.Reset()
		if _, err := w.Write(line); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 || b.String() != string(line) {
		t.Fatalf("%v allocations writing %q, want none and the line as it is", allocs, b.String())
	}
}
