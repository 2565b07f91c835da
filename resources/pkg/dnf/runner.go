package dnf

import (
	"context"

	"github.com/reactive-ccm/ccm/resources/internal/command"
)

// Runner runs one program and reports how it ended, as command.Run does: a
// non-zero exit is a Result, not an error.
type Runner interface {
	Run(ctx context.Context, c command.Cmd) (command.Result, error)
}

// RunnerFunc adapts a function to Runner.
type RunnerFunc func(ctx context.Context, c command.Cmd) (command.Result, error)

var _ Runner = RunnerFunc(nil)

// Run calls f.
func (f RunnerFunc) Run(ctx context.Context, c command.Cmd) (command.Result, error) { return f(ctx, c) }

// Host runs programs on this host.
var Host Runner = RunnerFunc(command.Run)
