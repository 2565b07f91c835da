package manager

import (
	"errors"
	"fmt"
	"strings"

	"github.com/reactive-ccm/ccm/resources/internal/command"
)

// ErrCommandFailed is wrapped by the error of every package-manager program
// that ran and exited with a failure.
var ErrCommandFailed = errors.New("package manager command failed")

// CommandFailed describes a program that ran and failed: its command line,
// its exit code and the lines of its output that say why.
func CommandFailed(c command.Cmd, res command.Result) error {
	return fmt.Errorf("%w: %s exited %d: %s", ErrCommandFailed, CommandLine(c), res.ExitCode, why(res))
}

// CommandLine renders c as an operator would type it.
func CommandLine(c command.Cmd) string {
	return strings.Join(append([]string{c.Name}, c.Args...), " ")
}

// why picks the error lines apt ("E: "), dnf ("Error: ") and rpm
// ("error: ") print, else the last lines of stderr, else of stdout.
func why(res command.Result) string {
	stderr := lines(res.Stderr)
	var errs []string
	for _, l := range stderr {
		if strings.HasPrefix(l, "E: ") || strings.HasPrefix(strings.ToLower(l), "error: ") {
			errs = append(errs, l)
		}
	}
	switch {
	case len(errs) > 0:
		return strings.Join(errs, "; ")
	case len(stderr) > 0:
		return strings.Join(last(stderr, 3), "; ")
	}
	if stdout := lines(res.Stdout); len(stdout) > 0 {
		return strings.Join(last(stdout, 3), "; ")
	}
	return "no output"
}

func lines(b []byte) []string {
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

func last(l []string, n int) []string {
	if len(l) > n {
		return l[len(l)-n:]
	}
	return l
}
