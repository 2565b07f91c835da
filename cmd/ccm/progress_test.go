package main_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal: its master, and the path of its slave.
func openPTY(t *testing.T) (*os.File, string) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skip("no pseudo-terminals here:", err)
	}
	t.Cleanup(func() { master.Close() })
	fd := int(master.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	return master, fmt.Sprintf("/dev/pts/%d", n)
}

// screen is what a terminal shows of out: each line from its last
// clear ("\r\x1b[K") on.
func screen(out string) []string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if i := strings.LastIndex(l, "\r\x1b[K"); i >= 0 {
			l = l[i+len("\r\x1b[K"):]
		}
		lines = append(lines, strings.TrimSuffix(l, "\r"))
	}
	return lines
}

// A one-shot run on a terminal shows what is running while it waits
// (two cats in parallel, each blocked on a FIFO until the test writes to
// it): the first cat's event line is printed while the second still
// runs, in place of the status line, which is cleared at the end. With
// --json nothing is drawn.
func TestProgressLineOnATerminal(t *testing.T) {
	for _, tc := range []struct {
		name  string
		flags []string
		// after, for each FIFO in turn, is what must have been printed
		// before it is let go.
		after func(a string) []string
	}{
		{"human", nil, func(a string) []string { return []string{"(+1 more)", "changed   exec#/bin/cat " + a} }},
		{"json", []string{"--json"}, func(a string) []string { return []string{"", `"name":"/bin/cat ` + a + `"`} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
			for _, fifo := range []string{a, b} {
				if err := unix.Mkfifo(fifo, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			m := manifest(t, dir, fmt.Sprintf("ccm:\n  parallel: true\n  resources:\n    - exec:\n        - /bin/cat %s: {}\n        - /bin/cat %s: {}\n", a, b))
			out, code := runOnPTY(t, []string{a, b}, tc.after(a), append([]string{"run"}, append(tc.flags, m)...)...)
			shown := screen(out)
			switch {
			case code != 0:
				t.Fatalf("exit %d:\n%q", code, out)
			case shown[len(shown)-1] != "":
				t.Fatalf("the status line stayed on the screen: %q\n%q", shown[len(shown)-1], out)
			case tc.flags == nil && !strings.Contains(out, "[0/2] exec#/bin/cat "):
				t.Fatalf("no status line:\n%q", out)
			case tc.flags == nil && !strings.HasPrefix(shown[len(shown)-2], "2 resources: 2 changed, 0 failed, 0 skipped, 0 stable, 0 refreshed in "):
				t.Fatalf("summary: %q", shown)
			case tc.flags != nil && strings.Contains(out, "\x1b["):
				t.Fatalf("--json drew on the terminal:\n%q", out)
			}
			for _, l := range shown {
				if strings.Contains(l, " running ") {
					t.Fatalf("a status line is left among the lines: %q\n%q", l, out)
				}
			}
		})
	}
}

// runOnPTY runs ccm with a pseudo-terminal as its standard input, output
// and error, and lets each FIFO go (see release) once the output shows
// the matching text of after.
func runOnPTY(t *testing.T, fifos, after []string, args ...string) (string, int) {
	t.Helper()
	master, slavePath := openPTY(t)
	slave, err := os.OpenFile(slavePath, os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	cmd.Env = withoutEnv(os.Environ(), "JOURNAL_STREAM")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	var out bytes.Buffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 4096)
		for {
			for len(fifos) > 0 && bytes.Contains(out.Bytes(), []byte(after[0])) {
				release(t, fifos[0])
				fifos, after = fifos[1:], after[1:]
			}
			n, err := master.Read(buf)
			out.Write(buf[:n])
			if err != nil {
				return
			}
		}
	}()
	err = cmd.Wait()
	<-done
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return out.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), 0
}

// release opens the FIFO for writing and closes it: the cat reading it
// sees the end and exits.
func release(t *testing.T, fifo string) {
	f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Error(err)
		return
	}
	f.Close()
}

func withoutEnv(env []string, name string) []string {
	var out []string
	for _, e := range env {
		if !strings.HasPrefix(e, name+"=") {
			out = append(out, e)
		}
	}
	return out
}
