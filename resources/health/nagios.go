package health

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/command"
)

// maxOutput bounds the output a check keeps for its event.
const maxOutput = 4 << 10

// newNagios builds a Nagios plugin check: the command split into words,
// run without a shell.
func newNagios(s settings, line string) (*check, error) {
	prog, args, err := command.Split(line)
	if err != nil {
		return nil, fmt.Errorf("%w: command: %w", ErrBadCheck, err)
	}
	if s.name == "" {
		s.name = defaultName(line)
	}
	// Twice what is kept: the output is trimmed before it is clipped.
	c := command.Cmd{Name: prog, Args: args, Timeout: s.timeout, Grace: s.grace, MaxOutput: 2 * maxOutput}
	return &check{settings: s, try: func(ctx context.Context) resources.HealthResult {
		return runPlugin(ctx, c)
	}}, nil
}

// runPlugin runs the plugin once. Its exit code is the status; its output
// is the first of stdout and stderr that is not empty. A plugin that cannot
// run, is killed or times out is UNKNOWN, saying why.
func runPlugin(ctx context.Context, c command.Cmd) resources.HealthResult {
	res, err := command.Run(ctx, c)
	if err != nil {
		return resources.HealthResult{Status: resources.HealthUnknown, Output: err.Error()}
	}
	out := bytes.TrimSpace(res.Stdout)
	if len(out) == 0 {
		out = bytes.TrimSpace(res.Stderr)
	}
	text := clip(string(out))
	if res.Truncated && !strings.HasSuffix(text, "…") {
		text += "…"
	}
	return resources.HealthResult{Status: statusOf(res.ExitCode), Output: text}
}

// statusOf maps a plugin's exit code to its status.
func statusOf(code int) resources.HealthStatus {
	switch code {
	case 0:
		return resources.HealthOK
	case 1:
		return resources.HealthWarning
	case 2:
		return resources.HealthCritical
	}
	return resources.HealthUnknown
}

// clip bounds an output, marking the cut.
func clip(s string) string {
	if len(s) <= maxOutput {
		return s
	}
	return s[:maxOutput] + "…"
}
