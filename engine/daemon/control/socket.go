package control

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/reactive-ccm/ccm/internal/ownership"
	"golang.org/x/sys/unix"
)

// socket is the control socket's name in its directory, held open from
// listen to remove so that nothing is done by its path: the directory was
// checked once, by descriptor, and everything after goes through that
// descriptor.
type socket struct {
	// path is the socket's path, for messages.
	path string
	dir  *os.File
	name string
}

// openSocket opens the directory of the socket at path, creating it 0700
// when missing. It must pass the ownership rule (owned by root or ccm's
// user, as every directory above it) and be private (0700): only root
// reaches the socket, and no one else can put anything at its name.
func openSocket(path string) (*socket, error) {
	dir, name := filepath.Split(path)
	d, err := ownership.MkdirAll(filepath.Clean(dir), 0o700)
	if err != nil {
		return nil, fmt.Errorf("control socket %s: %w", path, err)
	}
	st, err := d.Stat()
	if err == nil && st.Mode().Perm()&0o077 != 0 {
		err = fmt.Errorf("%w: %s is mode %04o, so others may reach the socket; chmod 0700 it, or name a socket in a directory of its own (--socket)",
			ErrUnsafeDir, d.Name(), st.Mode().Perm())
	}
	if err != nil {
		d.Close()
		return nil, fmt.Errorf("control socket %s: %w", path, err)
	}
	return &socket{path: path, dir: d, name: name}, nil
}

// at is a path that reaches the socket's name through the directory's
// descriptor, for the calls that take a path: bind and connect.
func (s *socket) at() string {
	return "/proc/self/fd/" + strconv.Itoa(int(s.dir.Fd())) + "/" + s.name
}

// listen removes a stale socket no daemon answers on, then binds and
// listens, and makes the socket 0600 by its descriptor.
func (s *socket) listen() (net.Listener, error) {
	if err := s.removeStale(); err != nil {
		return nil, err
	}
	ln, err := net.Listen("unix", s.at())
	if err != nil {
		return nil, fmt.Errorf("control socket %s: %w", s.path, err)
	}
	// The socket is removed by name in the directory, not by the path
	// above, which outlives the descriptor.
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	if err := s.private(); err != nil {
		ln.Close()
		s.remove()
		return nil, fmt.Errorf("control socket %s: %w", s.path, err)
	}
	return ln, nil
}

// private makes the socket 0600, on the socket itself: opened without
// following a link, checked to be a socket, changed through its
// descriptor.
func (s *socket) private() error {
	fd, err := unix.Openat(int(s.dir.Fd()), s.name, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFSOCK {
		return errors.New("something other than the socket took its place")
	}
	return unix.Chmod("/proc/self/fd/"+strconv.Itoa(fd), 0o600)
}

// removeStale removes a socket left by a daemon that is gone; a socket a
// daemon answers on is ErrInUse.
func (s *socket) removeStale() error {
	var st unix.Stat_t
	err := unix.Fstatat(int(s.dir.Fd()), s.name, &st, unix.AT_SYMLINK_NOFOLLOW)
	switch {
	case errors.Is(err, unix.ENOENT):
		return nil
	case err != nil:
		return fmt.Errorf("control socket %s: %w", s.path, err)
	case st.Mode&unix.S_IFMT != unix.S_IFSOCK:
		return fmt.Errorf("control socket %s: something other than a socket is there; remove it or choose another --socket", s.path)
	}
	if c, err := net.DialTimeout("unix", s.at(), time.Second); err == nil {
		c.Close()
		return fmt.Errorf("%w %s", ErrInUse, s.path)
	}
	return s.remove()
}

// remove removes the socket's name from its directory.
func (s *socket) remove() error {
	if err := unix.Unlinkat(int(s.dir.Fd()), s.name, 0); err != nil && !errors.Is(err, unix.ENOENT) {
		return fmt.Errorf("control socket %s: %w", s.path, err)
	}
	return nil
}

// close releases the directory.
func (s *socket) close() error { return s.dir.Close() }
