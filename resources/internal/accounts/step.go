package accounts

import (
	"context"
	"strings"

	"github.com/reactive-ccm/ccm/resources/internal/command"
)

// Step is one run of an account tool, and what it does in a noop
// message's words.
type Step struct {
	// What completes "Would have ": "created the group".
	What string
	Tool string
	Args []string
	// Stdin is fed to the tool (chpasswd's input); never shown.
	Stdin string
}

// RunSteps runs the steps in order through runner, stopping at the first
// failure.
func RunSteps(ctx context.Context, runner command.Runner, steps []Step) error {
	for _, s := range steps {
		if err := Run(ctx, runner, s.Stdin, s.Tool, s.Args...); err != nil {
			return err
		}
	}
	return nil
}

// NoopMessage says what the steps would have done: "Would have created
// the user; set the password".
func NoopMessage(steps []Step) string {
	what := make([]string, len(steps))
	for i, s := range steps {
		what[i] = s.What
	}
	return "Would have " + strings.Join(what, "; ")
}
