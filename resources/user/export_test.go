package user

import (
	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/command"
)

// SetRunner makes a user resource run its tools through runner.
func SetRunner(r resources.Resource, runner command.Runner) { r.(*user).runner = runner }
