package kernel

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/reactive-ccm/ccm/watchers/internal/nonblock"
)

// Instance is one inotify instance. Watch, Unwatch, Events, Drain and
// Close are safe for concurrent use; Read is for one reader goroutine.
type Instance struct {
	// file owns fd and serves Read through Go's poller (raw). fd is used
	// for inotify_add_watch, inotify_rm_watch and Drain's reads only while
	// mu is held and closed is false: Close sets closed under mu, so the
	// number is never used after it may have been reused.
	file *os.File
	raw  syscall.RawConn
	fd   int
	// turn is held by Read from its read of events until they are
	// handled, and by Drain throughout; it guards buf, which receives
	// every read, evs, the events parsed from it, and read.
	turn sync.Mutex
	buf  []byte
	evs  []Event
	// read is the read(2) of events; tests replace it to feed crafted
	// buffers.
	read func(fd int, p []byte) (int, error)
	// reader is readReady, made once: a closure per Read was four
	// allocations per batch of events. handle is the running Read's
	// handler and gotErr the error that stopped it, for the reader
	// goroutine's Read only.
	reader func(fd uintptr) bool
	handle Handler
	gotErr error
	// missed, set by tests, is called when the reader finds the turn
	// taken.
	missed func()
	// events counts the events read, for Stats.
	events atomic.Uint64

	mu     sync.Mutex
	closed bool
	// byPath holds the live watch of each path.
	byPath map[string]*watch
	// byWd holds every watch whose IN_IGNORED has not been read yet,
	// including those Unwatch removed.
	byWd map[int32]*watch
}

// readSize holds hundreds of events, and always at least one with the
// longest name (a smaller buffer makes read fail with EINVAL).
const readSize = 64 << 10

// maxEvent is the size of the longest event: its header and the longest
// name, NUL-terminated.
const maxEvent = unix.SizeofInotifyEvent + unix.NAME_MAX + 1

// Open creates the instance. Errors wrap the errno (EMFILE when the user's
// instances are exhausted, ENOSYS without inotify).
func Open() (*Instance, error) {
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("inotify: creating an instance: %w", err)
	}
	// A non-blocking descriptor is registered with the poller.
	file := os.NewFile(uintptr(fd), "inotify")
	raw, err := file.SyscallConn()
	if err != nil {
		return nil, errors.Join(fmt.Errorf("inotify: creating an instance: %w", err), file.Close())
	}
	in := &Instance{
		file: file, raw: raw, fd: fd,
		buf: make([]byte, readSize), read: nonblock.Read,
		byPath: map[string]*watch{}, byWd: map[int32]*watch{},
	}
	in.reader = in.readReady
	return in, nil
}

// Close releases the instance and its watches, and makes a blocked Read
// return ErrClosed.
func (in *Instance) Close() error {
	in.mu.Lock()
	if in.closed {
		in.mu.Unlock()
		return nil
	}
	in.closed = true
	in.mu.Unlock()
	// Closing waits for a Read's handler under way, which may take mu.
	// Nobody uses fd once closed is set.
	if err := in.file.Close(); err != nil {
		return fmt.Errorf("inotify: closing: %w", err)
	}
	return nil
}

// Watch watches dir for the events in mask (IN_* event bits and flags
// such as IN_ONLYDIR, never IN_MASK_ADD), replacing what an earlier Watch
// of dir asked for. dir is resolved like any path: a symlink is followed
// unless mask holds IN_DONT_FOLLOW. Errors name dir and wrap the errno
// (ENOENT, ENOTDIR, ENOSPC when the user's watches are exhausted).
func (in *Instance) Watch(dir string, mask uint32) error {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.closed {
		return fmt.Errorf("watching %s: %w", dir, ErrClosed)
	}
	return in.watch(dir, mask)
}

// Unwatch stops watching dir. Events already queued for it are still read
// under its name; an unknown dir is not an error.
func (in *Instance) Unwatch(dir string) error {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.closed {
		return fmt.Errorf("unwatching %s: %w", dir, ErrClosed)
	}
	w, ok := in.byPath[dir]
	if !ok {
		return nil
	}
	return in.detach(dir, w)
}

// Events returns how many events the instance has read from the kernel.
func (in *Instance) Events() uint64 { return in.events.Load() }
