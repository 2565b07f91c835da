package accounts

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/reactive-ccm/ccm/resources/internal/command"
)

// Timeout bounds one run of an account tool.
const Timeout = time.Minute

// toolMu makes the tools run one at a time in this process: each locks
// the databases it writes and fails at once when another holds them.
var toolMu sync.Mutex

// Run runs an account tool through runner, with stdin fed to it when
// not empty; a non-zero exit is an error carrying the tool's output.
// Args must hold no secret (stdin may): they appear in errors.
func Run(ctx context.Context, runner command.Runner, stdin string, name string, args ...string) error {
	toolMu.Lock()
	defer toolMu.Unlock()
	c := command.Cmd{Name: name, Args: args, Timeout: Timeout}
	if stdin != "" {
		c.Stdin = strings.NewReader(stdin)
	}
	return command.RunOK(ctx, runner, c)
}
