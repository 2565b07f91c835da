package writer

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"

	"github.com/reactive-ccm/ccm/watchers/internal/nonblock"
)

// changes are the events a mark asks for: every way the entries of a
// directory change.
const changes = unix.FAN_MODIFY | unix.FAN_CLOSE_WRITE | unix.FAN_ATTRIB |
	unix.FAN_CREATE | unix.FAN_DELETE | unix.FAN_MOVED_FROM | unix.FAN_MOVED_TO | unix.FAN_EVENT_ON_CHILD

// group is one fanotify group reporting directory handles and entry
// names.
type group struct {
	// file serves the reader goroutine through Go's poller; fd is read
	// directly by whoever drains the queue, under Spotter.mu.
	file *os.File
	fd   int
	buf  []byte
}

// openGroup creates the group. Errors wrap the errno: EPERM without
// CAP_SYS_ADMIN, EINVAL on kernels older than 5.9.
func openGroup() (*group, error) {
	fd, err := unix.FanotifyInit(unix.FAN_CLASS_NOTIF|unix.FAN_CLOEXEC|unix.FAN_NONBLOCK|unix.FAN_REPORT_DFID_NAME,
		unix.O_RDONLY|unix.O_CLOEXEC|unix.O_LARGEFILE)
	if err != nil {
		return nil, fmt.Errorf("fanotify: creating a group: %w", err)
	}
	return &group{file: os.NewFile(uintptr(fd), "fanotify"), fd: fd, buf: make([]byte, 16<<10)}, nil
}

// dirMark is a marked directory, held open so the mark can be
// removed even after the directory was renamed.
type dirMark struct {
	fd int
	// key is the directory's file system id and file handle, as events
	// name it.
	key string
}

// mark marks dir for changes of its entries.
func (g *group) mark(dir string) (*dirMark, error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("fanotify: opening %s: %w", dir, err)
	}
	key, err := dirKey(fd)
	if err == nil {
		err = unix.FanotifyMark(g.fd, unix.FAN_MARK_ADD, changes, fd, "")
	}
	if err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("fanotify: marking %s: %w", dir, err)
	}
	return &dirMark{fd: fd, key: key}, nil
}

// unmark removes m's mark and closes its descriptor.
func (g *group) unmark(m *dirMark) {
	_ = unix.FanotifyMark(g.fd, unix.FAN_MARK_REMOVE, changes, m.fd, "")
	unix.Close(m.fd)
}

// dirKey is the key events carry for the directory open as fd: the
// file system id and the file handle, laid out as in an event's DFID_NAME
// record (fsid, handle_bytes, handle_type, the handle), so an event's key
// is a slice of the record.
func dirKey(fd int) (string, error) {
	var st unix.Statfs_t
	if err := unix.Fstatfs(fd, &st); err != nil {
		return "", err
	}
	h, _, err := unix.NameToHandleAt(fd, "", unix.AT_EMPTY_PATH)
	if err != nil {
		return "", err
	}
	b := make([]byte, 16, 16+h.Size())
	binary.NativeEndian.PutUint32(b[0:], uint32(st.Fsid.Val[0]))
	binary.NativeEndian.PutUint32(b[4:], uint32(st.Fsid.Val[1]))
	binary.NativeEndian.PutUint32(b[8:], uint32(h.Size()))
	binary.NativeEndian.PutUint32(b[12:], uint32(h.Type()))
	return string(append(b, h.Bytes()...)), nil
}

// change is one event: who changed which entry of which directory. dir
// and name point into the read buffer: valid only while the callback of
// drain that gets them runs, so events nobody watches cost no allocation.
type change struct {
	pid  int
	dir  []byte // a dirMark key
	name []byte
}

// drain reads every queued event without blocking and passes each to
// fn. Callers serialise it (Spotter.mu).
func (g *group) drain(fn func(change)) {
	for {
		n, err := nonblock.Read(g.fd, g.buf)
		if err != nil || n <= 0 {
			// EAGAIN: the queue is empty. Any other error ends this
			// drain; the reader sees it too.
			return
		}
		parse(g.buf[:n], fn)
		if n < len(g.buf)-maxEvent {
			// The kernel returns as many events as fit: with room
			// left for the longest, this read emptied the queue, and
			// another would fail with EAGAIN. An event queued since
			// wakes the reader through the poller, which the reader's
			// drains run inside of (Spotter.read), never resetting it.
			return
		}
	}
}

// maxEvent is more than the longest event: its metadata, then the
// directory's fsid and file handle (at most MAX_HANDLE_SZ, 128 bytes)
// and the entry's name (at most NAME_MAX bytes and a NUL).
const maxEvent = 1024

// parse decodes a buffer of events: struct fanotify_event_metadata, then
// info records; the one of type DFID_NAME holds the fsid, the directory's
// file handle and the entry's NUL-terminated name.
func parse(b []byte, fn func(change)) {
	const meta = 24 // sizeof(struct fanotify_event_metadata)
	for len(b) >= meta {
		size := int(binary.NativeEndian.Uint32(b[0:]))
		if size < meta || size > len(b) {
			return
		}
		metaLen := int(binary.NativeEndian.Uint16(b[6:]))
		mask := binary.NativeEndian.Uint64(b[8:])
		pid := int(int32(binary.NativeEndian.Uint32(b[20:])))
		if mask&unix.FAN_Q_OVERFLOW == 0 && metaLen <= size {
			if dir, name, ok := dfidName(b[metaLen:size]); ok {
				fn(change{pid: pid, dir: dir, name: name})
			}
		}
		b = b[size:]
	}
}

// dfidName finds the DFID_NAME record among info records.
func dfidName(info []byte) (dir, name []byte, ok bool) {
	for len(info) >= 4 {
		typ, size := info[0], int(binary.NativeEndian.Uint16(info[2:]))
		if size < 4 || size > len(info) {
			return nil, nil, false
		}
		rec := info[4:size]
		info = info[size:]
		// fsid (8 bytes), handle_bytes, handle_type, the handle, the name.
		if typ != unix.FAN_EVENT_INFO_TYPE_DFID_NAME || len(rec) < 16 {
			continue
		}
		hlen := int(binary.NativeEndian.Uint32(rec[8:]))
		if 16+hlen > len(rec) {
			return nil, nil, false
		}
		name, _, _ := bytes.Cut(rec[16+hlen:], []byte{0})
		return rec[:16+hlen], name, true
	}
	return nil, nil, false
}

// close closes the group; a reader waiting on it returns.
func (g *group) close() error {
	if err := g.file.Close(); err != nil && !errors.Is(err, os.ErrClosed) {
		return fmt.Errorf("fanotify: closing: %w", err)
	}
	return nil
}
