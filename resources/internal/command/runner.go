package command

import "context"

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
