package textfile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/reactive-ccm/ccm/resources/commit"
	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	"golang.org/x/sys/unix"
)

// MaxSize bounds the files this package reads: configuration files, not
// logs.
const MaxSize = 16 << 20

// File is one look at a text file: its parent directory, kept open for
// the replacement that may follow, and its content. Close releases it.
type File struct {
	// Path is the file's path, for messages.
	Path string
	// Exists is false when nothing is at the path.
	Exists bool
	// Content is the file's content when it exists.
	Content []byte
	// UID, GID and Mode are the file's owner, group and permission bits
	// when it exists.
	UID, GID int
	Mode     uint32
	// Busy is set when some process had the file open for writing as it
	// was read: its content may be half written (a shell's `>` truncates,
	// then writes).
	Busy bool

	dir  *safepath.Dir
	base string
}

// Read looks at the file at path (absolute, clean), walking to it under
// links. A missing file, or a missing directory on the way, is a File
// that does not exist; anything but a regular file is ErrNotRegular.
func Read(links safepath.Policy, path string) (*File, error) {
	f := &File{Path: path}
	dir, base, err := links.OpenParent(path)
	f.base = base
	if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
		return f, nil
	}
	if err != nil {
		return nil, err
	}
	f.dir = dir
	if err := f.read(); err != nil {
		return nil, errors.Join(err, dir.Close())
	}
	return f, nil
}

// read reads the file in f's directory, if it is there.
func (f *File) read() error {
	r, err := f.dir.Open(f.base, unix.O_RDONLY|unix.O_NONBLOCK)
	switch {
	case errors.Is(err, unix.ENOENT):
		return nil
	case errors.Is(err, unix.ELOOP):
		return fmt.Errorf("%s %w: a symlink is never followed", f.Path, ErrNotRegular)
	case err != nil:
		return err
	}
	defer r.Close()
	st, err := r.Stat()
	if err != nil {
		return err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return fmt.Errorf("%s %w", f.Path, ErrNotRegular)
	}
	if st.Size > MaxSize {
		return fmt.Errorf("%s is larger than %d bytes, too large to edit", f.Path, MaxSize)
	}
	b, err := io.ReadAll(io.LimitReader(r, MaxSize+1))
	if err != nil {
		return err
	}
	if len(b) > MaxSize {
		return fmt.Errorf("%s grew beyond %d bytes while read, too large to edit", f.Path, MaxSize)
	}
	f.Exists, f.Content = true, b
	f.UID, f.GID, f.Mode = int(st.Uid), int(st.Gid), st.Mode&0o7777
	f.Busy, err = openForWriting(r)
	return err
}

// openForWriting reports whether any process has the file r reads open
// for writing: the kernel grants a read lease only when none has. The
// lease, when granted, is given back at once. Where no lease can be had
// at all (a process without CAP_LEASE on another's file, a filesystem
// without leases) nothing is known, and the file is taken as settled.
func openForWriting(r *safepath.File) (bool, error) {
	err := r.SetLease(unix.F_RDLCK)
	switch {
	case errors.Is(err, unix.EAGAIN):
		return true, nil
	case err != nil:
		return false, nil
	}
	return false, r.SetLease(unix.F_UNLCK)
}

// Close releases the directory the look holds.
func (f *File) Close() error { return f.dir.Close() }

// Attrs are a new file's owner, group and mode.
type Attrs struct {
	UID, GID int
	Mode     uint32
}

// Replace writes content over the file atomically, keeping the owner,
// group and mode it had. A file that did not exist is created with
// create's, or is ErrMissing when create is nil. The write is durable
// when Replace returns (with the commit group in ctx, if any).
func (f *File) Replace(ctx context.Context, content []byte, create *Attrs) error {
	a := Attrs{UID: f.UID, GID: f.GID, Mode: f.Mode}
	switch {
	case f.dir == nil && create != nil:
		return fmt.Errorf("%w: of %s", ErrNoParent, f.Path)
	case !f.Exists && create == nil:
		return fmt.Errorf("%s %w", f.Path, ErrMissing)
	case !f.Exists:
		a = *create
	}
	tmp, st, err := f.dir.WriteTemp(f.base, safepath.CreatePerm(a.Mode), bytes.NewReader(content))
	if err != nil {
		return fmt.Errorf("writing a temporary file for %s: %w", f.Path, err)
	}
	err = tmp.SetAttrs(&st, a.UID, a.GID, a.Mode)
	if err == nil {
		err = commit.Sync(ctx, tmp)
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", tmp.Name(), errors.Join(err, tmp.Abort()))
	}
	if err := tmp.Commit(); err != nil {
		return fmt.Errorf("replacing %s: %w", f.Path, err)
	}
	f.Exists, f.Content, f.UID, f.GID, f.Mode = true, content, a.UID, a.GID, a.Mode
	return nil
}

// Remove removes the file, if it is there.
func (f *File) Remove() error {
	if f.dir == nil || !f.Exists {
		return nil
	}
	err := f.dir.Unlink(f.base)
	if errors.Is(err, unix.ENOENT) {
		err = nil
	}
	if err == nil {
		f.Exists, f.Content = false, nil
	}
	return err
}
