package safepath

import (
	"errors"

	"golang.org/x/sys/unix"
)

// Stat returns the status of what is at path (absolute), reached as the
// Policy allows, the last component never followed: a symlink there is
// reported as one. With read, a regular file is also returned open for
// reading, to be closed by the caller; nothing else is. A path that does
// not exist, or a directory on the way that does not, is ENOENT.
//
// It is the cheap way to look at a path many times: one openat2 and one
// fstat (plus the close), as many system calls as lstat then open. With
// read, what stands at path is opened without O_PATH, O_NONBLOCK and
// O_NOCTTY keeping a FIFO or a terminal from acting on it; only root can
// place a device node there. The walk runs only when a symlink is on the
// way or at the end, or without openat2.
func (p Policy) Stat(path string, read bool) (unix.Stat_t, *File, error) {
	if haveOpenat2() {
		flags := unix.O_PATH
		if read {
			flags = unix.O_RDONLY | unix.O_NONBLOCK | unix.O_NOCTTY
		}
		how := unix.OpenHow{Flags: uint64(flags | unix.O_NOFOLLOW | unix.O_CLOEXEC), Resolve: unix.RESOLVE_NO_SYMLINKS}
		fd, err := unix.Openat2(unix.AT_FDCWD, path, &how)
		switch {
		case err == nil:
			return opened(&File{fd: fd, name: path}, read)
		case errors.Is(err, unix.ENOENT), errors.Is(err, unix.ENOTDIR):
			return unix.Stat_t{}, nil, pathError("stat", path, unix.ENOENT)
		case !errors.Is(err, unix.ELOOP) && !errors.Is(err, unix.ENXIO):
			// ELOOP is a link on the way or, with read, at the end; ENXIO
			// a socket opened for reading: the walk tells.
			return unix.Stat_t{}, nil, pathError("open", path, err)
		}
	}
	return p.statWalk(path, read)
}

// opened stats f and keeps it open when read asks for a regular file.
func opened(f *File, read bool) (unix.Stat_t, *File, error) {
	st, err := f.Stat()
	if err != nil || !read || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return st, nil, errors.Join(err, f.Close())
	}
	return st, f, nil
}

func (p Policy) statWalk(path string, read bool) (unix.Stat_t, *File, error) {
	d, base, err := p.OpenParent(path)
	if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
		return unix.Stat_t{}, nil, pathError("stat", path, unix.ENOENT)
	}
	if err != nil {
		return unix.Stat_t{}, nil, err
	}
	defer d.Close()
	st, err := d.Stat(base)
	if err != nil || !read || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return st, nil, err
	}
	f, err := d.Open(base, unix.O_RDONLY|unix.O_NONBLOCK)
	if err != nil {
		return st, nil, err
	}
	return opened(f, read)
}
