package command_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/reactive-ccm/ccm/resources/internal/command"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// script writes an executable shell script called name into dir.
func script(t *testing.T, dir, name, body string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+body+"\n"), mode); err != nil {
		t.Fatal(err)
	}
}

// TestLookPath: a program is looked up in the run's search path, not in
// this process's PATH; a name with a slash is used as written.
func TestLookPath(t *testing.T) {
	first, second := t.TempDir(), t.TempDir()
	script(t, first, "ccm-which", "echo first", 0o644)
	script(t, second, "ccm-which", "echo second", 0o755)
	script(t, first, "ccm-only-first", "echo only", 0o755)
	tests := []struct {
		name, path string
		out, err   string
	}{
		{name: "ccm-which", path: first + ":" + second, out: "second\n"},
		{name: "ccm-which", path: "::" + second, out: "second\n"},
		{name: "ccm-only-first", path: second + ":" + first, out: "only\n"},
		{name: filepath.Join(first, "ccm-only-first"), path: second, out: "only\n"},
		{name: "ccm-only-first", path: second, err: "ccm-only-first: executable not found in " + second},
		{name: "sh", path: "::" + first, err: "sh: executable not found in ::" + first},
		{name: "", err: "no command specified"},
	}
	for _, tt := range tests {
		t.Run(tt.name+" in "+tt.path, func(t *testing.T) {
			res, err := command.Run(t.Context(), command.Cmd{Name: tt.name, Path: tt.path})
			resourcetest.Returns(t, "the stdout of "+tt.name, string(res.Stdout), err, tt.out, tt.err)
			if tt.err != "" && res.ExitCode != -1 {
				t.Errorf("exit %d for a command not run, want -1", res.ExitCode)
			}
		})
	}
}

// TestEnvironment: a program gets the base environment and Env on top,
// not this process's, and starts in Dir or /.
func TestEnvironment(t *testing.T) {
	t.Setenv("CCM_LEAK", "from the caller")
	dir := t.TempDir()
	tests := []struct {
		name string
		cmd  command.Cmd
		want string
	}{
		{"the base", command.Cmd{}, "PATH=" + command.DefaultPath + " LANG=C LC_ALL=C leak= pwd=/"},
		{"a search path and a directory", command.Cmd{Path: "/usr/bin:/bin", Dir: dir}, "PATH=/usr/bin:/bin LANG=C LC_ALL=C leak= pwd=" + dir},
		{"later entries win", command.Cmd{Env: []string{"LANG=de_DE.UTF-8", "CCM_LEAK=a", "CCM_LEAK=b"}}, "PATH=" + command.DefaultPath + " LANG=de_DE.UTF-8 LC_ALL=C leak=b pwd=/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.cmd
			c.Name, c.Args = "sh", []string{"-c", `printf '%s' "PATH=$PATH LANG=$LANG LC_ALL=$LC_ALL leak=$CCM_LEAK pwd=$(pwd)"`}
			res, err := command.Run(t.Context(), c)
			if err != nil || string(res.Stdout) != tt.want {
				t.Fatalf("got %q (%v), want %q", res.Stdout, err, tt.want)
			}
		})
	}
}

func TestInputs(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := w.WriteString("from descriptor 3"); err != nil {
		t.Fatal(err)
	}
	w.Close()
	res, err := command.Run(t.Context(), command.Cmd{
		Name: "sh", Args: []string{"-c", "cat; echo; cat <&3"},
		Stdin: strings.NewReader("from stdin"), ExtraFiles: []*os.File{r},
	})
	if err != nil || string(res.Stdout) != "from stdin\nfrom descriptor 3" {
		t.Fatalf("stdout %q, error %v", res.Stdout, err)
	}
}

// TestHowARunEnds: a non-zero exit is a result; a signal, a cancelled
// context or a program that cannot start is an error saying so.
func TestHowARunEnds(t *testing.T) {
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	notExec := filepath.Join(t.TempDir(), "ccm-not-executable")
	script(t, filepath.Dir(notExec), filepath.Base(notExec), "exit 0", 0o644)
	tests := []struct {
		name string
		ctx  context.Context
		cmd  command.Cmd
		exit int
		err  string
		is   error
	}{
		{name: "exit code", cmd: command.Cmd{Name: "sh", Args: []string{"-c", "exit 7"}}, exit: 7},
		{name: "killed", cmd: command.Cmd{Name: "sh", Args: []string{"-c", "kill -KILL $$"}}, exit: -1, err: "sh killed by signal killed"},
		{name: "context ended before the start", ctx: cancelled, cmd: command.Cmd{Name: "sh", Args: []string{"-c", "exit 0"}}, exit: -1,
			err: "sh: context canceled; it had exited already", is: context.Canceled},
		{name: "not executable", cmd: command.Cmd{Name: notExec}, exit: -1, err: "running " + notExec + ": ", is: os.ErrPermission},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := tt.ctx
			if ctx == nil {
				ctx = t.Context()
			}
			res, err := command.Run(ctx, tt.cmd)
			if res.ExitCode != tt.exit {
				t.Errorf("exit code %d, want %d", res.ExitCode, tt.exit)
			}
			if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.err)) {
				t.Fatalf("error %v, want %q", err, tt.err)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Fatalf("error %v is not %v", err, tt.is)
			}
		})
	}
}

func TestRunOK(t *testing.T) {
	answer := func(res command.Result, err error) command.Runner {
		return command.RunnerFunc(func(context.Context, command.Cmd) (command.Result, error) { return res, err })
	}
	broken := errors.New("could not start")
	c := command.Cmd{Name: "useradd", Args: []string{"-u", "7", "ccmu"}}
	tests := []struct {
		name   string
		runner command.Runner
		want   string
	}{
		{"success", answer(command.Result{Stdout: []byte("fine")}, nil), ""},
		{"non-zero exit with its output", answer(command.Result{ExitCode: 4, Stderr: []byte("useradd: UID 7 is not unique\n"), Stdout: []byte("more\n")}, nil),
			"useradd -u 7 ccmu exited 4: useradd: UID 7 is not unique\n more"},
		{"silent failure", answer(command.Result{ExitCode: 1}, nil), "useradd -u 7 ccmu exited 1: "},
		{"the run's error", answer(command.Result{ExitCode: -1}, broken), "could not start"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := command.RunOK(t.Context(), tt.runner, c)
			if got := fmtErr(err); got != tt.want {
				t.Fatalf("error %q, want %q", got, tt.want)
			}
		})
	}
}

func fmtErr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestSplit: words as /bin/sh splits them, with nothing expanded.
func TestSplit(t *testing.T) {
	tests := []struct {
		line string
		want []string
		err  string
	}{
		{line: "echo a  b", want: []string{"echo", "a", "b"}},
		{line: `grep -q "port = 80" '/etc/x y.conf'`, want: []string{"grep", "-q", "port = 80", "/etc/x y.conf"}},
		{line: "echo $HOME; ls | wc *", want: []string{"echo", "$HOME;", "ls", "|", "wc", "*"}},
		{line: `printf a\ b "\$x"`, want: []string{"printf", "a b", "$x"}},
		{line: "", err: "the command is empty"},
		{line: " \t\n", err: "the command is empty"},
		{line: `echo "open`, err: "cannot be split into words: Unterminated double-quoted string"},
	}
	for _, tt := range tests {
		prog, args, err := command.Split(tt.line)
		var got []string
		if err == nil {
			got = append([]string{prog}, args...)
		}
		resourcetest.Returns(t, "Split("+strconv.Quote(tt.line)+")", got, err, tt.want, tt.err)
	}
}

// TestCancelStopsTheGroup: a run whose context ends stops the program's
// whole process group, grandchildren too, and says it was cancelled,
// not timed out.
func TestCancelStopsTheGroup(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var grandchild string
	res, err := command.Run(ctx, command.Cmd{
		Name: "sh", Args: []string{"-c", "sleep 1000 & echo $!; wait"}, Timeout: time.Hour,
		OnLine: func(_, line string) { grandchild = line; cancel() },
	})
	if !errors.Is(err, context.Canceled) || errors.Is(err, command.ErrTimeout) {
		t.Fatalf("exit %d, error %v, want cancelled", res.ExitCode, err)
	}
	if want := "sh: context canceled; its process group got SIGTERM and exited within the 5s grace period"; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	pid, err := strconv.Atoi(grandchild)
	if err != nil {
		t.Fatalf("grandchild %q: %v", grandchild, err)
	}
	// The grandchild got SIGTERM with its group: wait for its end (a
	// survivor hangs the test until its deadline).
	fd, err := unix.PidfdOpen(pid, 0)
	if errors.Is(err, unix.ESRCH) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	if _, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, -1); err != nil {
		t.Fatal(err)
	}
}

func TestMaxOutputPerStream(t *testing.T) {
	tests := []struct {
		name, script   string
		stdout, stderr string
		truncated      bool
	}{
		{"within the bound", "printf 1234; printf abcd >&2", "1234", "abcd", false},
		{"stderr beyond it", "printf 12; printf abcdef >&2", "12", "abcd", true},
		{"both beyond it in several writes", "printf 12; printf 345; printf abc >&2; printf def >&2", "1234", "abcd", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := command.Run(t.Context(), command.Cmd{Name: "sh", Args: []string{"-c", tt.script}, MaxOutput: 4})
			if err != nil || string(res.Stdout) != tt.stdout || string(res.Stderr) != tt.stderr || res.Truncated != tt.truncated {
				t.Fatalf("stdout %q stderr %q truncated %v (%v), want %q %q %v", res.Stdout, res.Stderr, res.Truncated, err, tt.stdout, tt.stderr, tt.truncated)
			}
		})
	}
}

// TestTimedOutRunKeepsItsOutput: what a program printed before its
// timeout stopped it comes back with the error, for the message.
func TestTimedOutRunKeepsItsOutput(t *testing.T) {
	res, err := command.Run(t.Context(), command.Cmd{
		// Long enough for sh to print first on a loaded machine.
		Name: "sh", Args: []string{"-c", "echo started; echo warming >&2; exec sleep 1000"}, Timeout: 2 * time.Second,
	})
	if !errors.Is(err, command.ErrTimeout) || string(res.Stdout) != "started\n" || string(res.Stderr) != "warming\n" || res.ExitCode != -1 {
		t.Fatalf("exit %d, stdout %q, stderr %q, error %v", res.ExitCode, res.Stdout, res.Stderr, err)
	}
}
