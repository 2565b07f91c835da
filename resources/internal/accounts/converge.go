package accounts

import (
	"context"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/command"
)

// Existence is what a check of an account (a user, a group) reports when
// its existence alone decides: done is false only when the account exists
// and is wanted, and its properties are then to compare.
func Existence(exists, absent bool) (st resources.Status, done bool) {
	switch {
	case !exists && absent:
		return resources.Status{Ensure: "absent", Desired: true}, true
	case !exists:
		return resources.Status{Ensure: "absent", Differences: []resources.Difference{resources.Differs("ensure", "absent", "present")}}, true
	case absent:
		return resources.Status{Ensure: "present", Differences: []resources.Difference{resources.Differs("ensure", "present", "absent")}}, true
	}
	return resources.Status{}, false
}

// Apply runs the steps through runner or, with noop, says what they would
// have done; no steps is no change.
func Apply(ctx context.Context, runner command.Runner, steps []Step, noop bool) (resources.Change, error) {
	switch {
	case len(steps) == 0:
		return resources.Change{}, nil
	case noop:
		return resources.Change{Changed: true, NoopMessage: NoopMessage(steps)}, nil
	}
	if err := RunSteps(ctx, runner, steps); err != nil {
		return resources.Change{}, err
	}
	return resources.Change{Changed: true}, nil
}
