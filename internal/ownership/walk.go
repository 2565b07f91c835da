package ownership

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

const (
	// pathFlags open a component to look at it: O_PATH opens a FIFO, a
	// device or a directory without side effects, O_NOFOLLOW opens a
	// symlink itself.
	pathFlags = unix.O_PATH | unix.O_NOFOLLOW | unix.O_CLOEXEC
	// maxHops bounds the symlinks one walk follows, as the kernel does.
	maxHops = 40
	// maxMkdirs bounds how often a walk makes a directory someone keeps
	// removing.
	maxMkdirs = 100
)

// walk is one resolution of a path from /. It holds the directory reached
// so far, checked by the rule, and goes on from its descriptor.
type walk struct {
	// path is what was asked for, for messages.
	path string
	fd   int
	// at is the path of fd as reached, for messages.
	at   string
	hops int
	// mkdir is the mode of directories made where missing; 0 makes none.
	mkdir  uint32
	mkdirs int
}

// target is the last component of a walk, opened with O_PATH, not yet
// checked: the caller checks its type before the rule, then reopens it.
type target struct {
	// path is what was asked for; at is the target's path as reached.
	path, at string
	// dir holds the target as name; owned says the target must close it.
	dir   int
	owned bool
	name  string
	fd    int
	st    unix.Stat_t
}

// resolve walks to path (absolute), checking every directory and symlink
// on the way, and returns its last component. A symlink there is
// followed when follow is set.
func resolve(path string, follow bool, mkdir uint32) (*target, error) {
	if !filepath.IsAbs(path) {
		return nil, &fs.PathError{Op: "open", Path: path, Err: errors.New("path is not absolute")}
	}
	w := &walk{path: path, fd: -1, mkdir: mkdir}
	if err := w.root(); err != nil {
		return nil, err
	}
	comps := components(path)
	for {
		name := "."
		if len(comps) > 0 {
			name, comps = comps[0], comps[1:]
		}
		fd, st, err := w.look(name)
		if err != nil {
			return nil, w.fail(err)
		}
		switch {
		case st.Mode&unix.S_IFMT == unix.S_IFLNK && (follow || len(comps) > 0):
			more, err := w.follow(name, fd, &st)
			if err != nil {
				return nil, w.fail(err)
			}
			comps = append(more, comps...)
		case len(comps) == 0:
			return &target{path: path, at: w.join(name), dir: w.fd, owned: true, name: name, fd: fd, st: st}, nil
		default:
			if err := w.enter(name, fd, &st); err != nil {
				return nil, w.fail(err)
			}
		}
	}
}

// root moves the walk to /, checking it.
func (w *walk) root() error {
	fd, err := unix.Open("/", pathFlags|unix.O_DIRECTORY, 0)
	if err != nil {
		return pathError("open", "/", err)
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return pathError("stat", "/", err)
	}
	w.close()
	w.fd, w.at = fd, "/"
	if err := refuse(w.path, "/", wayWhy(&st)); err != nil {
		return w.fail(err)
	}
	return nil
}

// look opens name in the walk's directory with O_PATH, making it first
// when missing and the walk makes directories.
func (w *walk) look(name string) (int, unix.Stat_t, error) {
	var st unix.Stat_t
	fd, err := unix.Openat(w.fd, name, pathFlags, 0)
	for errors.Is(err, unix.ENOENT) && w.mkdir != 0 && w.mkdirs < maxMkdirs {
		w.mkdirs++
		if err = unix.Mkdirat(w.fd, name, w.mkdir); err != nil && !errors.Is(err, unix.EEXIST) {
			return -1, st, pathError("mkdir", w.join(name), err)
		}
		fd, err = unix.Openat(w.fd, name, pathFlags, 0)
	}
	if err != nil {
		return -1, st, pathError("open", w.join(name), err)
	}
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return -1, st, pathError("stat", w.join(name), err)
	}
	return fd, st, nil
}

// enter moves the walk into the directory fd, name in the one it holds.
func (w *walk) enter(name string, fd int, st *unix.Stat_t) error {
	at := w.join(name)
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		unix.Close(fd)
		return pathError("open", at, unix.ENOTDIR)
	}
	w.close()
	w.fd, w.at = fd, at
	return refuse(w.path, at, wayWhy(st))
}

// follow checks the symlink fd, name in the walk's directory, and returns
// the components of its target, to walk next, after moving to / for an
// absolute target.
func (w *walk) follow(name string, fd int, st *unix.Stat_t) ([]string, error) {
	defer unix.Close(fd)
	link := w.join(name)
	if err := refuse(w.path, link, linkWhy(st)); err != nil {
		return nil, err
	}
	if w.hops++; w.hops > maxHops {
		return nil, pathError("open", link, unix.ELOOP)
	}
	dest, err := readlink(fd)
	if err != nil {
		return nil, pathError("readlink", link, err)
	}
	if filepath.IsAbs(dest) {
		if err := w.root(); err != nil {
			return nil, err
		}
	}
	return components(dest), nil
}

// fail releases the walk and returns err.
func (w *walk) fail(err error) error {
	w.close()
	return err
}

func (w *walk) close() {
	if w.fd >= 0 {
		unix.Close(w.fd)
		w.fd = -1
	}
}

func (w *walk) join(name string) string {
	switch {
	case name == ".":
		return w.at
	case name == "..":
		return filepath.Dir(w.at)
	case w.at == "/":
		return "/" + name
	}
	return w.at + "/" + name
}

// reopen opens the target again with flags, never following a symlink,
// and makes sure it is the same file.
func (t *target) reopen(flags int) (int, error) {
	fd, err := unix.Openat(t.dir, t.name, flags|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, pathError("open", t.at, err)
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return -1, pathError("stat", t.at, err)
	}
	if st.Dev != t.st.Dev || st.Ino != t.st.Ino {
		unix.Close(fd)
		return -1, pathError("open", t.at, errChanged)
	}
	return fd, nil
}

// check applies the rule to the target itself.
func (t *target) check() error { return refuse(t.path, t.at, targetWhy(&t.st)) }

func (t *target) close() {
	unix.Close(t.fd)
	if t.owned {
		unix.Close(t.dir)
	}
}

// components splits a path into its names, dropping empty ones.
func components(path string) []string {
	var out []string
	for _, p := range strings.Split(path, "/") {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// readlink returns the target of the symlink open at fd (O_PATH).
func readlink(fd int) (string, error) {
	for size := 256; size <= 1<<16; size *= 2 {
		buf := make([]byte, size)
		n, err := unix.Readlinkat(fd, "", buf)
		if err != nil {
			return "", err
		}
		if n < size {
			return string(buf[:n]), nil
		}
	}
	return "", unix.ENAMETOOLONG
}

// pathError wraps a failed system call with its path; nil stays nil.
func pathError(op, path string, err error) error {
	if err == nil {
		return nil
	}
	return &fs.PathError{Op: op, Path: path, Err: err}
}

// typeName names the kind of file st is, for messages.
func typeName(st *unix.Stat_t) string {
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
		return "a regular file"
	case unix.S_IFDIR:
		return "a directory"
	case unix.S_IFLNK:
		return "a symlink"
	case unix.S_IFIFO:
		return "a FIFO"
	case unix.S_IFSOCK:
		return "a socket"
	case unix.S_IFCHR, unix.S_IFBLK:
		return "a device"
	}
	return fmt.Sprintf("a file of type %#o", st.Mode&unix.S_IFMT)
}
