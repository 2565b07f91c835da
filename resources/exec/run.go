package exec

import (
	"context"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/command"
)

// DefaultGuardTimeout bounds each onlyif and unless guard of an exec that
// sets no timeout. Without one the command itself is bounded by the exec
// type's default (10m).
const DefaultGuardTimeout = time.Minute

// Timeout is the exec's `timeout`: with it the engine bounds each check
// and each run at that, instead of the type's default.
func (e *exec) Timeout() time.Duration { return e.timeout }

// guardTimeout bounds one guard: the exec's timeout, else the default.
func (e *exec) guardTimeout() time.Duration {
	if e.timeout > 0 {
		return e.timeout
	}
	return DefaultGuardTimeout
}

// run resolves cmd and the exec's cwd and environment, and runs it with the
// exec's path under timeout (none when zero: the engine's deadline
// bounds it). A timeout stops the command's whole process group: SIGTERM,
// then SIGKILL after the exec's timeout_grace. The exit
// code is returned; an error means it could not run to an exit: not found,
// killed, timed out, or a template failed.
func (e *exec) run(ctx context.Context, cmd resources.Deferred, logOutput bool, timeout time.Duration) (int, error) {
	line, err := cmd.Resolve()
	if err != nil {
		return 0, err
	}
	prog, args, err := e.argv(line)
	if err != nil {
		return 0, err
	}
	e.secrets.Add(prog)
	// Only the exit code and, with logoutput, the lines are used: keeping
	// the output would hold all a chatty command prints in memory.
	c := command.Cmd{Name: prog, Args: args, Path: e.path, Timeout: timeout, Grace: e.grace, Discard: true}
	if e.cwd.IsSet() {
		if c.Dir, err = e.cwd.Resolve(); err != nil {
			return 0, err
		}
	}
	for _, d := range e.env {
		entry, err := d.Resolve()
		if err != nil {
			return 0, err
		}
		c.Env = append(c.Env, entry)
	}
	var hidden atomic.Int64
	switch {
	case logOutput && e.secrets != nil:
		c.OnLine = func(string, string) { hidden.Add(1) }
		defer func() {
			slog.InfoContext(ctx, "output not logged: the exec is sensitive", "resource", e.id, "lines", hidden.Load())
		}()
	case logOutput:
		c.OnLine = func(stream, text string) {
			slog.InfoContext(ctx, text, "resource", e.id, "stream", stream)
		}
	}
	res, err := command.Run(ctx, c)
	if err != nil {
		return res.ExitCode, fmt.Errorf("%s: %w", cmd.Label(), err)
	}
	return res.ExitCode, nil
}
