package archive

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/reactive-ccm/ccm/resources/internal/command"
	"github.com/reactive-ccm/ccm/resources/internal/ids"
	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	"golang.org/x/sys/unix"
)

// extract unpacks the archive into extract_parent, creating it (0755) when
// missing. Both are reached by a safe walk. The archive is first copied,
// hashed as it is copied, to a root-owned 0600 file in a stage only root
// can enter, and the checksum checked: tar or unzip reads that copy, so
// what is extracted is exactly what was verified, whoever can write the
// archive. The tool unpacks into a second such stage inside
// extract_parent, so no link anyone plants in extract_parent is followed;
// for an owner other than root, what it unpacked is then given to that
// owner (disown); then it is moved into extract_parent from descriptor to
// descriptor (safepath.Stage). The tool runs without a shell and is
// killed, with its whole process group, when the timeout expires; a
// failed extraction leaves extract_parent as it was.
func (a *archive) extract(ctx context.Context) (err error) {
	uid, gid, err := ids.Resolve(a.p.Owner, a.p.Group)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrExtract, err)
	}
	dir, err := a.links.MkdirAll(a.p.ExtractParent, 0o755)
	if err != nil {
		return fmt.Errorf("%w: creating %s: %w", ErrExtract, a.p.ExtractParent, err)
	}
	defer dir.Close()
	lim, err := a.limits(dir.FdPath())
	if err != nil {
		return fmt.Errorf("%w: %s: %w", ErrExtract, a.p.ExtractParent, err)
	}
	src, err := a.privateCopy(ctx, dir, lim)
	if errors.Is(err, ErrTooLarge) {
		return a.refused(err)
	}
	if err != nil {
		return fmt.Errorf("%w: %w", ErrExtract, err)
	}
	defer func() { err = errors.Join(err, src.close()) }()
	stage, err := dir.MkdirStage()
	if err != nil {
		return fmt.Errorf("%w: %w", ErrExtract, err)
	}
	defer func() { err = errors.Join(err, stage.Remove()) }()
	// The private copy takes room too.
	if err := a.unpack(ctx, stage.FdPath(), src.File, lim.less(src.size)); err != nil {
		return err
	}
	if uid != 0 {
		if err := disown(stage, uid, gid); err != nil {
			return fmt.Errorf("%w: %s into %s for %s: %w", ErrExtract, a.name, a.p.ExtractParent, a.p.Owner, err)
		}
	}
	if err := stage.MoveIn(); err != nil {
		return fmt.Errorf("%w: %s into %s: %w", ErrExtract, a.name, a.p.ExtractParent, err)
	}
	return nil
}

// unpack runs the extraction tool in dir on src, within the bounds of
// what dir's filesystem can take (limits.go): a tar is fed to the tool
// through a pipe, counted as it goes; a zip is read whole and counted
// before the tool runs. Past a bound the tool gets nothing more and the
// extraction fails.
func (a *archive) unpack(ctx context.Context, dir string, src *os.File, lim limits) error {
	m := &meter{limits: lim}
	var err error
	if a.format.feed != nil {
		err = a.untar(ctx, dir, src, m)
	} else {
		err = a.unzip(ctx, dir, src, m)
	}
	if err == nil || errors.Is(err, ErrExtract) {
		return err
	}
	return a.refused(err)
}

// refused is the error for an archive refused before or while it was
// extracted, for a reason of its own (err): what to do when it is a bound.
func (a *archive) refused(err error) error {
	advice := "; nothing was extracted"
	if errors.Is(err, ErrTooLarge) {
		advice += fmt.Sprintf(" (if the archive is the one you meant, make room on the filesystem of %s; docs/resources/archive.md gives the limits)", a.p.ExtractParent)
	}
	return fmt.Errorf("%w: %s into %s: %w%s", ErrExtract, a.name, a.p.ExtractParent, err, advice)
}

// untar feeds the tar in src to the tool through a pipe. The feeder's
// error, returned as it is, wins over the tool's, which is then only the
// echo of its input ending early; a broken pipe means the tool stopped
// reading, and its own error says why.
func (a *archive) untar(ctx context.Context, dir string, src *os.File, m *meter) error {
	pr, pw, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("%w: %w", ErrExtract, err)
	}
	fed := make(chan error, 1)
	go func() {
		err := a.format.feed(m, src, pw)
		fed <- errors.Join(err, pw.Close())
	}()
	ran := a.runTool(ctx, dir, command.Cmd{Args: a.format.args("-", "."), Stdin: pr})
	// Closed, so a feeder still writing to a tool that exited stops.
	pr.Close()
	if err := <-fed; err != nil && !errors.Is(err, unix.EPIPE) {
		return err
	}
	return ran
}

// unzip counts the zip in src, sets aside what it counted (pledge), then
// lets the tool extract it. The scan's error is returned as it is.
func (a *archive) unzip(ctx context.Context, dir string, src *os.File, m *meter) error {
	st, err := src.Stat()
	if err == nil {
		err = a.format.scan(m, src, st.Size())
	}
	if err != nil {
		return err
	}
	release, err := m.pledge(m.written)
	if err != nil {
		return err
	}
	defer release()
	return a.runTool(ctx, dir, command.Cmd{Args: a.format.args("/dev/fd/3", "."), ExtraFiles: []*os.File{src}})
}

// runTool runs the extraction tool in dir with c's arguments and input.
func (a *archive) runTool(ctx context.Context, dir string, c command.Cmd) error {
	c.Name, c.Dir, c.Timeout = a.format.tool, dir, a.extractTimeout
	res, err := command.Run(ctx, c)
	if err != nil {
		return fmt.Errorf("%w: %s into %s: %w", ErrExtract, a.name, a.p.ExtractParent, err)
	}
	if res.ExitCode != 0 {
		return fmt.Errorf("%w: %s into %s: %s exited with code %d: %s",
			ErrExtract, a.name, a.p.ExtractParent, a.format.tool, res.ExitCode, bytes.TrimSpace(res.Stderr))
	}
	return nil
}

// copied is the private copy of the archive the tool reads: File reads it
// from the start; close removes it.
type copied struct {
	*os.File
	size int64
	tmp  *safepath.Temp
	hold *safepath.Stage
}

func (c copied) close() error {
	return errors.Join(c.File.Close(), c.tmp.Abort(), c.hold.Remove())
}

// privateCopy copies the archive into a root-owned 0600 file in a stage of
// dir only root can enter, hashing the bytes as it copies them, and checks
// them against the checksum. No one but root can change the copy, so the
// bytes verified are the bytes extracted, even when the archive's owner
// rewrites the archive in place meanwhile. An archive larger than
// lim.total (a file its owner may have grown at will) is refused.
func (a *archive) privateCopy(ctx context.Context, dir *safepath.Dir, lim limits) (_ copied, err error) {
	from, err := a.openArchive()
	if err != nil {
		return copied{}, err
	}
	defer from.Close()
	hold, err := dir.MkdirStage()
	if err != nil {
		return copied{}, err
	}
	c := copied{hold: hold}
	if c.tmp, err = hold.CreateTemp(filepath.Base(a.name)); err != nil {
		return copied{}, errors.Join(err, hold.Remove())
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, c.tmp.Abort(), hold.Remove())
		}
	}()
	sum, n, err := copyAndHash(&roomWriter{w: c.tmp, l: lim}, io.LimitReader(ctxReader{ctx, from}, lim.total+1))
	if errors.Is(err, ErrTooLarge) {
		return copied{}, err
	}
	if err != nil {
		return copied{}, fmt.Errorf("copying %s: %w", a.name, err)
	}
	if n > lim.total {
		return copied{}, &overLimit{what: "the archive file", limit: lim.total, unit: "bytes"}
	}
	c.size = n
	if a.p.Checksum != "" && sum != a.p.Checksum {
		return copied{}, fmt.Errorf("%w: %s does not hold what its checksum says (it changed since it was checked): expected %q got %q; nothing was extracted",
			ErrChecksumMismatch, a.name, a.p.Checksum, sum)
	}
	c.File, err = c.tmp.Reopen()
	return c, err
}

// openArchive opens the archive, a regular file, for reading.
func (a *archive) openArchive() (*safepath.File, error) {
	dir, base, err := a.links.OpenParent(a.name)
	if err != nil {
		return nil, err
	}
	defer dir.Close()
	f, err := dir.Open(base, unix.O_RDONLY|unix.O_NONBLOCK)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && st.Mode&unix.S_IFMT != unix.S_IFREG {
		err = fmt.Errorf("%s is a %s, not an archive file", a.name, kindOf(st.Mode))
	}
	if err != nil {
		return nil, errors.Join(err, f.Close())
	}
	return f, nil
}

// disown gives everything the tool unpacked in stage to uid and gid, as if
// that user had extracted it: whatever the members say, nothing comes out
// owned by root, setuid or setgid. Only files, directories and symlinks
// may come out: a device, FIFO or socket is refused and nothing is
// extracted. The stage is root's alone, so nothing changes under the walk.
func disown(stage *safepath.Stage, uid, gid int) error {
	return stage.Walk(func(in *safepath.Dir, name, rel string, _ bool) error {
		st, err := in.Stat(name)
		if err != nil {
			return err
		}
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFLNK:
			return in.SetLinkOwner(name, uid, gid)
		case unix.S_IFREG, unix.S_IFDIR:
			return in.SetAttrs(name, uid, gid, st.Mode&0o7777&^(unix.S_ISUID|unix.S_ISGID))
		}
		return fmt.Errorf("%s is a %s: an archive extracted for a user other than root may hold only files, directories and symlinks", rel, kindOf(st.Mode))
	})
}
