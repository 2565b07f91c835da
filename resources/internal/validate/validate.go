// Package validate runs a manifest's validate command (file and scaffold)
// on new content before it replaces the old, as Puppet's validate_cmd and
// Ansible's validate do: %s in the command stands for the file holding the
// new content, and a non-zero exit refuses it.
package validate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/reactive-ccm/ccm/resources/internal/command"
)

// Placeholder stands for the file holding the new content.
const Placeholder = "%s"

// contentPath is where the command finds the new content: the descriptor
// it is given as its first extra file.
const contentPath = "/dev/fd/3"

// maxOutput bounds the part of the command's output an error carries.
const maxOutput = 2 << 10

// Timeout bounds a validate command; on expiry its process group is stopped.
const Timeout = time.Minute

var (
	// ErrNoPlaceholder is returned for a command without %s.
	ErrNoPlaceholder = errors.New("the command must name the new content as %s")
	// ErrRefused is wrapped when the command refuses the new content.
	ErrRefused = errors.New("validate refused the new content")
)

// Command is a parsed validate command.
type Command struct {
	prog string
	args []string
	raw  string
	// quiet leaves the command's output out of a refusal.
	quiet bool
}

// Parse splits line into words as exec's posix provider does (no shell)
// and checks that it names the new content.
func Parse(line string) (Command, error) {
	prog, args, err := command.Split(line)
	if err != nil {
		return Command{}, err
	}
	if !strings.Contains(line, Placeholder) {
		return Command{}, ErrNoPlaceholder
	}
	return Command{prog: prog, args: args, raw: line}, nil
}

// Quiet returns c with its output left out of a refusal, for a sensitive
// resource: a checker may quote the content it refuses.
func (c Command) Quiet() Command {
	c.quiet = true
	return c
}

// Run runs the command on the new content, given as an open file: %s
// becomes /dev/fd/3, the file's descriptor in the command, so nothing can
// swap the file between the check and its use. A non-zero exit wraps
// ErrRefused with the command's output; an error means it could not run.
func (c Command) Run(ctx context.Context, content *os.File) error {
	args := make([]string, len(c.args))
	for i, a := range c.args {
		args[i] = strings.ReplaceAll(a, Placeholder, contentPath)
	}
	res, err := command.Run(ctx, command.Cmd{Name: c.prog, Args: args, Timeout: Timeout, ExtraFiles: []*os.File{content}, Discard: c.quiet})
	if err != nil {
		return fmt.Errorf("validate %q: %w", c.raw, err)
	}
	switch {
	case res.ExitCode != 0 && c.quiet:
		return fmt.Errorf("%w: %q exited with code %d (output not shown: the resource is sensitive)", ErrRefused, c.raw, res.ExitCode)
	case res.ExitCode != 0:
		out := bytes.TrimSpace(append(res.Stderr, res.Stdout...))
		if len(out) > maxOutput {
			out = append(out[:maxOutput:maxOutput], "…"...)
		}
		return fmt.Errorf("%w: %q exited with code %d: %s", ErrRefused, c.raw, res.ExitCode, out)
	}
	return nil
}
