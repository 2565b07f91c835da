package safepath

import (
	"errors"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// File is an open file: the few calls resources need, on the raw
// descriptor. An os.File registers with the runtime poller and costs as
// much as reading a small file.
type File struct {
	fd   int
	name string
}

// Name is the file's path, for messages.
func (f *File) Name() string { return f.name }

// Read reads into p; it returns io.EOF at the end.
func (f *File) Read(p []byte) (int, error) {
	for {
		n, err := unix.Read(f.fd, p)
		switch {
		case errors.Is(err, unix.EINTR):
			continue
		case err != nil:
			return 0, pathError("read", f.name, err)
		case n == 0 && len(p) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

// ReadAt reads into p from offset off, as io.ReaderAt. A short read ends
// it with io.EOF: the kernel returns less than asked of a regular file
// only at its end, and the read that would confirm it costs a system call.
func (f *File) ReadAt(p []byte, off int64) (int, error) {
	for {
		n, err := unix.Pread(f.fd, p, off)
		switch {
		case errors.Is(err, unix.EINTR):
			continue
		case err != nil:
			return 0, pathError("read", f.name, err)
		case n < len(p):
			return n, io.EOF
		}
		return n, nil
	}
}

// Write writes all of p.
func (f *File) Write(p []byte) (int, error) {
	done := 0
	for done < len(p) {
		n, err := unix.Write(f.fd, p[done:])
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return done, pathError("write", f.name, err)
		}
		done += n
	}
	return done, nil
}

// Stat returns the file's status.
func (f *File) Stat() (unix.Stat_t, error) {
	var st unix.Stat_t
	err := unix.Fstat(f.fd, &st)
	return st, pathError("stat", f.name, err)
}

// Chown sets the file's owner and group.
func (f *File) Chown(uid, gid int) error {
	return pathError("chown", f.name, unix.Fchown(f.fd, uid, gid))
}

// Chmod sets the file's permission bits.
func (f *File) Chmod(mode uint32) error {
	return pathError("chmod", f.name, unix.Fchmod(f.fd, mode))
}

// Sync flushes the file to its device.
func (f *File) Sync() error {
	return pathError("fsync", f.name, unix.Fsync(f.fd))
}

// Detach hands the descriptor over to an os.File, to give to a child
// process (exec.Cmd.ExtraFiles); f is closed afterwards.
func (f *File) Detach() *os.File {
	o := os.NewFile(uintptr(f.fd), f.name)
	f.fd = -1
	return o
}

// Seek moves the read offset.
func (f *File) Seek(offset int64, whence int) (int64, error) {
	n, err := unix.Seek(f.fd, offset, whence)
	return n, pathError("seek", f.name, err)
}

// Close releases the file.
func (f *File) Close() error {
	if f.fd < 0 {
		return nil
	}
	err := unix.Close(f.fd)
	f.fd = -1
	return pathError("close", f.name, err)
}

// SetLease takes (F_RDLCK, F_WRLCK) or gives back (F_UNLCK) a lease on
// the file (fcntl F_SETLEASE). A read lease is refused with EAGAIN while
// any process has the file open for writing.
func (f *File) SetLease(kind int) error {
	_, err := unix.FcntlInt(uintptr(f.fd), unix.F_SETLEASE, kind)
	return pathError("lease", f.name, err)
}
