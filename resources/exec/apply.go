package exec

import (
	"context"

	"github.com/reactive-ccm/ccm/resources"
)

// Noop messages, upstream CCM's words.
const (
	msgExecute   = "Would have executed"
	msgSubscribe = "Would have executed via subscribe"
)

// Apply runs the command. The engine calls it when Check found the command
// should run, or for a refresh, which runs it whatever creates and the
// guards say ("subscribe wins"). The exit code is kept for the Check that
// follows, which reports a code outside returns; in noop nothing runs.
func (e *exec) Apply(ctx context.Context, req resources.Request) (resources.Change, error) {
	if req.Noop {
		// The command is resolved as a run would, so noop reports a
		// template that cannot be resolved.
		if _, err := e.command.Resolve(); err != nil {
			return resources.Change{}, err
		}
		msg := msgExecute
		if req.Refresh {
			msg = msgSubscribe
		}
		return resources.Change{Changed: true, Refreshed: req.Refresh, NoopMessage: msg}, nil
	}
	code, err := e.run(ctx, e.command, e.logOutput, e.timeout)
	if err != nil {
		return resources.Change{}, err
	}
	e.mu.Lock()
	e.exit = &code
	e.mu.Unlock()
	return resources.Change{Changed: true, Refreshed: req.Refresh}, nil
}
