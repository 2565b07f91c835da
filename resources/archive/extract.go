package archive

import (
	"bytes"
	"context"
	"fmt"
	"os"

	"github.com/reactive-ccm/ccm/resources/internal/command"
)

// extract unpacks the archive into extract_parent, creating it (0755) when
// missing. tar or unzip runs without a shell, in extract_parent, and is
// killed with its whole process group when the timeout expires.
func (a *archive) extract(ctx context.Context) error {
	dir := a.p.ExtractParent
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("%w: creating %s: %w", ErrExtract, dir, err)
	}
	res, err := command.Run(ctx, command.Cmd{
		Name:    a.format.tool,
		Args:    a.format.args(a.name, dir),
		Dir:     dir,
		Timeout: a.extractTimeout,
	})
	if err != nil {
		return fmt.Errorf("%w: %s into %s: %w", ErrExtract, a.name, dir, err)
	}
	if res.ExitCode != 0 {
		return fmt.Errorf("%w: %s into %s: %s exited with code %d: %s",
			ErrExtract, a.name, dir, a.format.tool, res.ExitCode, bytes.TrimSpace(res.Stderr))
	}
	return nil
}
