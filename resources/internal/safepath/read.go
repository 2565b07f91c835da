package safepath

import (
	"errors"

	"github.com/reactive-ccm/ccm/internal/ownership"
	"golang.org/x/sys/unix"
)

// OpenRegular opens the regular file at path for reading, following only
// trusted or allowed symlinks, the last component included. Anything else
// (a FIFO, a device, a directory) is ErrNotRegular; O_NONBLOCK keeps the
// open of a FIFO from blocking. It returns the file's size as opened.
func (p Policy) OpenRegular(path string) (*File, int64, error) {
	fd, err := p.open(path, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY, false, 0)
	if err != nil {
		return nil, 0, err
	}
	f := &File{fd: fd, name: path}
	st, err := f.Stat()
	if err == nil && st.Mode&unix.S_IFMT != unix.S_IFREG {
		err = pathError("open", path, ErrNotRegular)
	}
	if err != nil {
		return nil, 0, errors.Join(err, f.Close())
	}
	return f, st.Size, nil
}

// ReadFile returns the content of the regular file at path, which must
// hold at most max bytes, checked before reading and while reading (a file
// may grow).
func (p Policy) ReadFile(path string, max int64) ([]byte, error) {
	f, size, err := p.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if size > max {
		return nil, ownership.TooLarge(path, max)
	}
	return ownership.ReadAtMost(f, path, max)
}
