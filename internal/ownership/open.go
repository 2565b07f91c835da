package ownership

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// ReadFile returns the content of the regular file at path (relative to
// the working directory unless absolute), which must hold at most max
// bytes, once it and the way to it pass the rule. Trusted symlinks are
// followed, the last component included.
func ReadFile(path string, max int64) ([]byte, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	t, err := resolve(abs, true, 0)
	if err != nil {
		return nil, err
	}
	defer t.close()
	return t.read(max)
}

// ReadFileIn returns the content of the regular file name in dir, a
// directory OpenDir or MkdirAll opened, which must hold at most max
// bytes, once it passes the rule. A symlink is not followed: it is
// ErrNotRegular.
func ReadFileIn(dir *os.File, name string, max int64) ([]byte, error) {
	path := filepath.Join(dir.Name(), name)
	if name != filepath.Base(name) || name == "." || name == ".." {
		return nil, pathError("open", path, fmt.Errorf("%q is not a single path component", name))
	}
	fd, err := unix.Openat(int(dir.Fd()), name, pathFlags, 0)
	if err != nil {
		return nil, pathError("open", path, err)
	}
	t := &target{path: path, at: path, dir: int(dir.Fd()), name: name, fd: fd}
	defer t.close()
	if err := unix.Fstat(fd, &t.st); err != nil {
		return nil, pathError("stat", path, err)
	}
	return t.read(max)
}

// read checks that t is a regular file passing the rule and reads it.
func (t *target) read(max int64) ([]byte, error) {
	if t.st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, pathError("open", t.at, fmt.Errorf("%w: it is %s", ErrNotRegular, typeName(&t.st)))
	}
	if err := t.check(); err != nil {
		return nil, err
	}
	if t.st.Size > max {
		return nil, TooLarge(t.at, max)
	}
	fd, err := t.reopen(unix.O_RDONLY | unix.O_NONBLOCK | unix.O_NOCTTY)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), t.at)
	defer f.Close()
	return ReadAtMost(f, t.at, max)
}

// TooLarge is the error of reading the file at path, which holds more
// than max bytes: ErrTooLarge.
func TooLarge(path string, max int64) error {
	return pathError("read", path, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, max))
}

// ReadAtMost reads r, the file at path, to its end: at most max bytes,
// else TooLarge. A file found small enough may grow while it is read.
func ReadAtMost(r io.Reader, path string, max int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, TooLarge(path, max)
	}
	return b, nil
}

// OpenDir opens the directory at path (relative to the working
// directory unless absolute) for reading, once it and the way to it pass
// the rule: nobody but root and ccm's user may add, rename or remove
// what it holds. Trusted symlinks are followed, the last component
// included.
func OpenDir(path string) (*os.File, error) { return openDir(path, 0) }

// MkdirAll is OpenDir, first making the directory and the missing ones
// above it with mode (less the umask).
func MkdirAll(path string, mode uint32) (*os.File, error) {
	if mode == 0 {
		return nil, pathError("mkdir", path, unix.EINVAL)
	}
	return openDir(path, mode)
}

func openDir(path string, mkdir uint32) (*os.File, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	t, err := resolve(abs, true, mkdir)
	if err != nil {
		return nil, err
	}
	defer t.close()
	if t.st.Mode&unix.S_IFMT != unix.S_IFDIR {
		return nil, pathError("open", t.at, fmt.Errorf("%w: it is %s", unix.ENOTDIR, typeName(&t.st)))
	}
	if err := t.check(); err != nil {
		return nil, err
	}
	fd, err := t.reopen(unix.O_RDONLY | unix.O_DIRECTORY)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), t.at), nil
}
