// Package termsafe keeps what ccm prints from acting on the terminal
// that shows it: names of files found on the host, another user's command
// line, a fleet host's name and a command's output are data ccm did not
// write, and a terminal acts on the escape sequences they may hold
// (retitling the window, rewriting what is shown, answering back on
// stdin).
package termsafe

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/sys/unix"
)

// Writer passes what ccm prints on with every control character but
// newline and tab escaped (\x1b, \u009b), and every byte that is not
// UTF-8 (\xff). JSON and YAML already escape them, apart from C1 controls in
// JSON strings, whose \u escape means the same to a JSON reader. A
// character split between two writes is held until the next.
type Writer struct {
	mu sync.Mutex
	w  io.Writer
	// held is the start of a character the last write ended in.
	held []byte
}

// NewWriter escapes what is written to w. It is safe for concurrent use.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Unescaped is the writer under t, for output that is ccm's own escape
// sequences (a status line redrawn in place).
func (t *Writer) Unescaped() io.Writer { return t.w }

func (t *Writer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := p
	if len(t.held) > 0 {
		b = append(t.held, p...)
		t.held = nil
	}
	if n := partialTail(b); n > 0 {
		t.held = append([]byte(nil), b[len(b)-n:]...)
		b = b[:len(b)-n]
	}
	if safe(b) {
		_, err := t.w.Write(b)
		return len(p), err
	}
	_, err := io.WriteString(t.w, Escape(b))
	return len(p), err
}

// safe reports whether Escape would leave b as it is: printable text in
// valid UTF-8, newlines and tabs, what ccm prints almost always (an event
// line's arrow included), passed on without escaping.
func safe(b []byte) bool {
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 || r < 0xa0 {
			return false
		}
		i += size
	}
	return true
}

// partialTail is the length of the start of a UTF-8 character that b
// ends in, 0 when it ends in a whole one.
func partialTail(b []byte) int {
	for n := 1; n <= min(len(b), utf8.UTFMax-1); n++ {
		c := b[len(b)-n]
		if c < 0x80 {
			return 0
		}
		if utf8.RuneStart(c) {
			if utf8.FullRune(b[len(b)-n:]) {
				return 0
			}
			return n
		}
	}
	return 0
}

// Escape is b with its control characters and bytes that are not UTF-8
// escaped, newlines and tabs kept.
func Escape(b []byte) string {
	var s strings.Builder
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&s, `\x%02x`, b[0])
		case r == '\n' || r == '\t':
			s.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&s, `\x%02x`, r)
		case r >= 0x80 && r < 0xa0:
			fmt.Fprintf(&s, `\u%04x`, r)
		default:
			s.Write(b[:size])
		}
		b = b[size:]
	}
	return s.String()
}

// OneLine keeps text that must stay one line (an event line, a log
// message, a cell of a table) on one: a newline inside it, from an error
// or a name, would start a line of its own, which a reader, or the
// journal reading a priority prefix (<0>) at its start, would take for
// ccm's; a tab would shift a table's columns.
func OneLine(text string) string { return lineBreaks.Replace(text) }

var lineBreaks = strings.NewReplacer("\n", `\n`, "\t", `\t`)

// Width reports whether w is a terminal, and its width (0 when the
// terminal does not say).
func Width(w io.Writer) (int, bool) {
	f, ok := w.(*os.File)
	if !ok {
		return 0, false
	}
	if _, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS); err != nil {
		return 0, false
	}
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil {
		return 0, true
	}
	return int(ws.Col), true
}

// ErrNoTerminal is Confirm's answer when there is no one to ask.
var ErrNoTerminal = errors.New("stdin is not a terminal to confirm on")

// Confirm asks question on out and reads the answer from in: yes for y
// or yes, in any case. tty is the terminal the question needs (stdin);
// without one, it is ErrNoTerminal, and nothing is asked.
func Confirm(tty *os.File, in io.Reader, out io.Writer, question string) (bool, error) {
	if _, ok := Width(tty); !ok {
		return false, ErrNoTerminal
	}
	fmt.Fprintf(out, "%s [y/N] ", question)
	line, _ := bufio.NewReader(in).ReadString('\n')
	answer := strings.ToLower(strings.TrimSpace(line))
	return answer == "y" || answer == "yes", nil
}
