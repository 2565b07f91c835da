package archive

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/reactive-ccm/ccm/resources/internal/command"
	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	"golang.org/x/sys/unix"
)

// extract unpacks the archive into extract_parent, creating it (0755) when
// missing. Both are reached by a safe walk. tar or unzip gets the archive
// as an open descriptor (verified against the checksum first) and unpacks
// it into a stage inside extract_parent that only root can enter, so no
// link anyone plants in extract_parent is followed by the tool; what it
// unpacked is then moved into extract_parent from descriptor to
// descriptor (safepath.Stage). The tool runs without a shell and is
// killed, with its whole process group, when the timeout expires; a
// failed extraction leaves extract_parent as it was.
func (a *archive) extract(ctx context.Context) (err error) {
	dir, err := a.links.MkdirAll(a.p.ExtractParent, 0o755)
	if err != nil {
		return fmt.Errorf("%w: creating %s: %w", ErrExtract, a.p.ExtractParent, err)
	}
	defer dir.Close()
	src, err := a.openVerified(ctx)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrExtract, err)
	}
	defer src.Close()
	stage, err := dir.MkdirStage()
	if err != nil {
		return fmt.Errorf("%w: %w", ErrExtract, err)
	}
	defer func() { err = errors.Join(err, stage.Remove()) }()
	if err := a.unpack(ctx, stage.FdPath(), src); err != nil {
		return err
	}
	if err := stage.MoveIn(); err != nil {
		return fmt.Errorf("%w: %s into %s: %w", ErrExtract, a.name, a.p.ExtractParent, err)
	}
	return nil
}

// unpack runs the extraction tool in dir on src.
func (a *archive) unpack(ctx context.Context, dir string, src *os.File) error {
	res, err := command.Run(ctx, command.Cmd{
		Name:       a.format.tool,
		Args:       a.format.args("/dev/fd/3", "."),
		Dir:        dir,
		ExtraFiles: []*os.File{src},
		Timeout:    a.extractTimeout,
	})
	if err != nil {
		return fmt.Errorf("%w: %s into %s: %w", ErrExtract, a.name, a.p.ExtractParent, err)
	}
	if res.ExitCode != 0 {
		return fmt.Errorf("%w: %s into %s: %s exited with code %d: %s",
			ErrExtract, a.name, a.p.ExtractParent, a.format.tool, res.ExitCode, bytes.TrimSpace(res.Stderr))
	}
	return nil
}

// openVerified opens the archive for the extraction tool and, with a
// checksum set, checks what that descriptor holds: what is extracted is
// what was verified.
func (a *archive) openVerified(ctx context.Context) (*os.File, error) {
	dir, base, err := a.links.OpenParent(a.name)
	if err != nil {
		return nil, err
	}
	defer dir.Close()
	f, err := dir.Open(base, unix.O_RDONLY|unix.O_NONBLOCK)
	if err != nil {
		return nil, err
	}
	if err := a.verify(ctx, f); err != nil {
		return nil, errors.Join(err, f.Close())
	}
	return f.Detach(), nil
}

// verify checks a regular file against the checksum and rewinds it.
func (a *archive) verify(ctx context.Context, f *safepath.File) error {
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return fmt.Errorf("%s is a %s, not an archive file", a.name, kindOf(st.Mode))
	}
	if a.p.Checksum == "" {
		return nil
	}
	sum, err := sha256Of(ctx, f)
	if err != nil {
		return err
	}
	if sum != a.p.Checksum {
		return fmt.Errorf("%w: %s changed since it was verified: expected %q got %q", ErrChecksumMismatch, a.name, a.p.Checksum, sum)
	}
	_, err = f.Seek(0, 0)
	return err
}
