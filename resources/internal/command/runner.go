package command

import (
	"context"
	"fmt"
	"strings"
)

// Runner runs one program and reports how it ended, as Run does: a
// non-zero exit is a Result, not an error. Providers take one so that
// tests can count or answer their commands.
type Runner interface {
	Run(ctx context.Context, c Cmd) (Result, error)
}

// RunnerFunc adapts a function to Runner.
type RunnerFunc func(ctx context.Context, c Cmd) (Result, error)

var _ Runner = RunnerFunc(nil)

// Run calls f.
func (f RunnerFunc) Run(ctx context.Context, c Cmd) (Result, error) { return f(ctx, c) }

// Host runs programs on this host, with Run.
var Host Runner = RunnerFunc(Run)

// RunOK runs c through r and makes a non-zero exit an error carrying the
// program's name, arguments and output, for callers that want success or
// a reason. The arguments appear in the error: they must hold no secret
// (c.Stdin may).
func RunOK(ctx context.Context, r Runner, c Cmd) error {
	res, err := r.Run(ctx, c)
	if err != nil {
		return err
	}
	if res.ExitCode != 0 {
		out := strings.TrimSpace(string(res.Stderr) + " " + string(res.Stdout))
		return fmt.Errorf("%s %s exited %d: %s", c.Name, strings.Join(c.Args, " "), res.ExitCode, out)
	}
	return nil
}
