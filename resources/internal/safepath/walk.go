package safepath

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

const (
	// dirFlags open a directory a walk goes through or returns. O_PATH
	// needs only search permission, as a path lookup does (root squashed
	// on NFS has no more); listing reopens the directory for reading.
	dirFlags = unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC
	// maxHops bounds the symlinks one walk follows, as the kernel does.
	maxHops = 40
	// maxRetries bounds how often a walk opens a component again that
	// someone keeps swapping between a directory and a link.
	maxRetries = 100
)

// errChanged is a component that was a symlink when opened and is not one
// any more when looked at (or the other way round): open it again.
var errChanged = errors.New("changed while being resolved")

// haveOpenat2 reports whether the kernel offers openat2 with
// RESOLVE_NO_SYMLINKS; without it (before Linux 5.6, or under a seccomp
// filter that refuses it) every open walks component by component. Tests
// replace it to exercise the walk.
var haveOpenat2 = sync.OnceValue(func() bool {
	fd, err := unix.Openat2(unix.AT_FDCWD, "/", &unix.OpenHow{Flags: dirFlags, Resolve: unix.RESOLVE_NO_SYMLINKS})
	if err != nil {
		return false
	}
	unix.Close(fd)
	return true
})

// open resolves path (absolute) with p and opens it with flags; with
// create, missing directories are made with mode on the way. The fast
// path is one openat2 that refuses every symlink; the walk runs only when
// it meets one (to follow it when trusted, or to name it), when create has
// something to make, or without openat2.
func (p Policy) open(path string, flags int, create bool, mode uint32) (int, error) {
	if !filepath.IsAbs(path) {
		return -1, &fs.PathError{Op: "open", Path: path, Err: errors.New("path is not absolute")}
	}
	if haveOpenat2() {
		how := unix.OpenHow{Flags: uint64(flags | unix.O_NOFOLLOW | unix.O_CLOEXEC), Resolve: unix.RESOLVE_NO_SYMLINKS}
		fd, err := unix.Openat2(unix.AT_FDCWD, path, &how)
		if !walkAfter(err, create) {
			return fd, pathError("open", path, err)
		}
	}
	root, err := unix.Open("/", dirFlags, 0)
	if err != nil {
		return -1, pathError("open", "/", err)
	}
	w := &walk{policy: p, fd: root, owned: true, at: "/"}
	return w.run(components(path), flags, create, mode)
}

// walkAfter reports whether a failed openat2 needs the walk: it met a
// symlink (ELOOP; ENOTDIR for a link where a directory is opened with
// O_PATH|O_NOFOLLOW), or create has a directory to make.
func walkAfter(err error, create bool) bool {
	return errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) || create && errors.Is(err, unix.ENOENT)
}

// openBeneath resolves rel below d, following no symlink at all, and
// opens it with flags; with create, missing directories are made.
func (d *Dir) openBeneath(rel string, flags int, create bool, mode uint32) (int, error) {
	if haveOpenat2() {
		how := unix.OpenHow{Flags: uint64(flags | unix.O_NOFOLLOW | unix.O_CLOEXEC), Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS}
		fd, err := unix.Openat2(d.fd, rel, &how)
		if !walkAfter(err, create) {
			return fd, pathError("open", d.Join(rel), err)
		}
	}
	w := &walk{beneath: true, fd: d.fd, at: d.path}
	return w.run(components(rel), flags, create, mode)
}

// walk is one component-by-component resolution. It holds the directory
// reached so far; each step opens the next component from it with
// O_NOFOLLOW, so nothing is resolved by path string twice.
type walk struct {
	policy Policy
	// beneath refuses every symlink: the walk stays below where it began.
	beneath bool
	fd      int
	// owned is false while fd is the caller's, which the walk must not close.
	owned bool
	// at is the path of fd, for messages and the Policy.
	at   string
	hops int
	// retries counts components opened again because they changed
	// between the open and the look at why it failed.
	retries int
}

// run resolves comps from w's directory; the last is opened with flags,
// the others as directories. It returns the last one's descriptor.
func (w *walk) run(comps []string, flags int, create bool, mode uint32) (int, error) {
	defer w.release()
	if len(comps) == 0 {
		fd, err := unix.Openat(w.fd, ".", flags|unix.O_CLOEXEC, 0)
		return fd, pathError("open", w.at, err)
	}
	for len(comps) > 0 {
		name := comps[0]
		comps = comps[1:]
		f := dirFlags
		if len(comps) == 0 {
			f = flags | unix.O_CLOEXEC
		}
		if name == ".." && w.beneath {
			return -1, pathError("open", w.at, fmt.Errorf("%q leaves the directory", name))
		}
		fd, err := unix.Openat(w.fd, name, f|unix.O_NOFOLLOW, 0)
		switch {
		case err == nil:
			w.step(fd, name)
			continue
		case create && errors.Is(err, unix.ENOENT):
			if err := unix.Mkdirat(w.fd, name, mode); err != nil && !errors.Is(err, unix.EEXIST) {
				return -1, pathError("mkdir", join(w.at, name), err)
			}
			comps = append([]string{name}, comps...)
			continue
		case errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR):
			more, ferr := w.follow(name, err)
			if errors.Is(ferr, errChanged) && w.retries < maxRetries {
				w.retries++
				more, ferr = []string{name}, nil
			}
			if ferr != nil {
				return -1, ferr
			}
			comps = append(more, comps...)
			continue
		}
		return -1, pathError("open", join(w.at, name), err)
	}
	fd := w.fd
	w.fd, w.owned = -1, false
	return fd, nil
}

// step moves the walk into fd, the component name of where it is.
func (w *walk) step(fd int, name string) {
	w.release()
	w.fd, w.owned = fd, true
	switch name {
	case ".":
	case "..":
		w.at = filepath.Dir(w.at)
	default:
		w.at = join(w.at, name)
	}
}

func (w *walk) release() {
	if w.owned {
		unix.Close(w.fd)
	}
	w.owned = false
}

// follow decides about name, which failed to open with openErr because it
// is a symlink or not a directory. It returns the components of the link's
// target, to walk next, after moving to / for an absolute target.
func (w *walk) follow(name string, openErr error) ([]string, error) {
	link := join(w.at, name)
	var lst unix.Stat_t
	if err := unix.Fstatat(w.fd, name, &lst, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return nil, pathError("lstat", link, err)
	}
	switch {
	case lst.Mode&unix.S_IFMT == unix.S_IFDIR:
		return nil, errChanged
	case lst.Mode&unix.S_IFMT != unix.S_IFLNK:
		return nil, pathError("open", link, openErr)
	}
	target, err := readlinkat(w.fd, name)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOENT) {
		return nil, errChanged
	}
	if err != nil {
		return nil, pathError("readlink", link, err)
	}
	if err := w.trust(link, target, &lst); err != nil {
		return nil, err
	}
	if w.hops++; w.hops > maxHops {
		return nil, pathError("open", link, unix.ELOOP)
	}
	if filepath.IsAbs(target) {
		root, err := unix.Open("/", dirFlags, 0)
		if err != nil {
			return nil, pathError("open", "/", err)
		}
		w.release()
		w.fd, w.owned, w.at = root, true, "/"
	}
	return components(target), nil
}

// trust returns a SymlinkError unless the walk may follow the link.
func (w *walk) trust(link, target string, lst *unix.Stat_t) error {
	if w.beneath {
		return &SymlinkError{Link: link, Target: target, Why: "links below a directory ccm manages are never followed"}
	}
	if w.policy.allows(link) {
		return nil
	}
	var dst unix.Stat_t
	if err := unix.Fstat(w.fd, &dst); err != nil {
		return pathError("stat", w.at, err)
	}
	if why := untrusted(&dst, lst); why != "" {
		return &SymlinkError{Link: link, Target: target, Why: why + "; list it in follow_symlinks to follow it anyway"}
	}
	return nil
}

// components splits a path into its names, dropping empty ones.
func components(path string) []string {
	parts := strings.Split(path, "/")
	out := parts[:0]
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

func join(dir, name string) string {
	if dir == "/" {
		return "/" + name
	}
	return dir + "/" + name
}

// readlinkat returns the target of the link name in dirfd.
func readlinkat(dirfd int, name string) (string, error) {
	for size := 256; ; size *= 2 {
		buf := make([]byte, size)
		n, err := unix.Readlinkat(dirfd, name, buf)
		if err != nil {
			return "", err
		}
		if n < size {
			return string(buf[:n]), nil
		}
	}
}

// pathError wraps a failed system call with its path; nil stays nil.
func pathError(op, path string, err error) error {
	if err == nil {
		return nil
	}
	var se *SymlinkError
	if errors.As(err, &se) {
		return err
	}
	return &fs.PathError{Op: op, Path: path, Err: err}
}
