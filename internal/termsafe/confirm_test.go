package termsafe_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/internal/termsafe"
	"golang.org/x/sys/unix"
)

// terminal is the slave side of a new pseudo-terminal.
func terminal(t *testing.T) *os.File {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skip("no pseudo-terminals here:", err)
	}
	t.Cleanup(func() { ptmx.Close() })
	if err := unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	tty, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tty.Close() })
	return tty
}

// TestConfirm: on a terminal, only y or yes (any case, blanks around) is
// a yes; without one, nothing is asked.
func TestConfirm(t *testing.T) {
	tty := terminal(t)
	for answer, yes := range map[string]bool{"y\n": true, " YES \n": true, "Yes": true, "n\n": false, "\n": false, "": false, "yep\n": false} {
		var out strings.Builder
		got, err := termsafe.Confirm(tty, strings.NewReader(answer), &out, "Remove it?")
		if err != nil || got != yes || out.String() != "Remove it? [y/N] " {
			t.Errorf("answer %q: %v %v, asked %q", answer, got, err, out.String())
		}
	}
	file, err := os.Create(filepath.Join(t.TempDir(), "stdin"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	var out strings.Builder
	if got, err := termsafe.Confirm(file, strings.NewReader("y\n"), &out, "Remove it?"); got || !errors.Is(err, termsafe.ErrNoTerminal) || out.Len() != 0 {
		t.Fatalf("off a terminal: %v %v, asked %q", got, err, out.String())
	}
}
