package mountinfo

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"golang.org/x/sys/unix"
)

// Hub notifies watchers of mount points when the mount table changes
// there. It runs until its context ends.
type Hub struct {
	ctx      context.Context
	log      *slog.Logger
	fallback func(path string, notify func()) (cancel func())

	mu sync.Mutex
	// fd is the open table, -1 until the first Watch; failed says why it
	// could not be opened, and then every watch falls back. It is a raw
	// descriptor, never an os.File: Go's poller would register an
	// os.File with its own epoll, whose polls of the table consume the
	// kernel's change events (the table's poll marks the change seen).
	fd     int
	failed error
	table  map[string]string
	// watchers are keyed by mount point.
	watchers map[string]*watchSet
}

type watcher struct{ notify func() }

// errStopped is why a hub whose context ended falls back.
var errStopped = errors.New("mountinfo: the hub has stopped")

// watchSet is the watchers of one mount point.
type watchSet map[*watcher]struct{}

// New returns a hub that starts with its first Watch and stops when ctx
// ends. fallback watches a path when the table cannot be read (no /proc):
// the caller polls it.
func New(ctx context.Context, log *slog.Logger, fallback func(path string, notify func()) (cancel func())) *Hub {
	return &Hub{ctx: ctx, log: log, fallback: fallback, fd: -1, watchers: map[string]*watchSet{}}
}

// Watch calls notify whenever what is mounted at path (absolute, clean)
// changes: a mount, an unmount, a remount, a mount over it, until cancel
// is called. The watch is armed when Watch returns. notify must not block.
func (h *Hub) Watch(path string, notify func()) (cancel func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.start(); err != nil {
		return h.fallback(path, notify)
	}
	w := &watcher{notify}
	set := h.watchers[path]
	if set == nil {
		set = &watchSet{}
		h.watchers[path] = set
	}
	(*set)[w] = struct{}{}
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		delete(*set, w)
		if len(*set) == 0 && h.watchers[path] == set {
			delete(h.watchers, path)
		}
	}
}

// start opens the table, reads it and starts the loop, once. h.mu is
// held.
func (h *Hub) start() error {
	if h.fd >= 0 || h.failed != nil {
		return h.failed
	}
	fd, err := unix.Open(Path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err == nil {
		var table string
		if table, err = read(fd); err == nil {
			h.fd, h.table = fd, pointsOf(table)
		} else {
			unix.Close(fd)
		}
	}
	var wake int
	if err == nil {
		if wake, err = unix.Eventfd(0, unix.EFD_CLOEXEC|unix.EFD_NONBLOCK); err != nil {
			unix.Close(h.fd)
			h.fd = -1
		}
	}
	if err != nil {
		h.failed = fmt.Errorf("mountinfo: %w", err)
		h.log.Warn("the mount table cannot be watched; polling mount points", "error", err)
		return h.failed
	}
	go func() {
		<-h.ctx.Done()
		// Eight bytes make the eventfd readable: the loop ends.
		unix.Write(wake, []byte{1, 0, 0, 0, 0, 0, 0, 0})
	}()
	go h.loop(h.fd, wake)
	return nil
}

// read reads the whole table from its start.
func read(fd int) (string, error) {
	var b []byte
	buf := make([]byte, 64<<10)
	for off := int64(0); ; {
		n, err := unix.Pread(fd, buf, off)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return "", err
		}
		if n == 0 {
			return string(b), nil
		}
		b = append(b, buf[:n]...)
		off += int64(n)
	}
}

// loop waits for the kernel's POLLPRI on the table, or for the hub's end.
func (h *Hub) loop(fd, wake int) {
	defer unix.Close(wake)
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLPRI}, {Fd: int32(wake), Events: unix.POLLIN}}
	for {
		_, err := unix.Poll(fds, -1)
		switch {
		case errors.Is(err, unix.EINTR):
			continue
		case err != nil:
			h.log.Error("waiting on the mount table", "error", err)
			return
		case fds[1].Revents != 0:
			h.mu.Lock()
			unix.Close(h.fd)
			h.fd, h.failed = -1, errStopped
			h.mu.Unlock()
			return
		case fds[0].Revents&(unix.POLLPRI|unix.POLLERR) != 0:
			h.changed()
		}
	}
}

// changed reads the table again and notifies the watchers of every mount
// point whose entries differ; all of them when it cannot be read.
func (h *Hub) changed() {
	h.mu.Lock()
	var notify []func()
	table, err := read(h.fd)
	if err != nil {
		h.log.Warn("reading the mount table; checking every mount", "error", err)
	}
	now := pointsOf(table)
	for point, set := range h.watchers {
		if err != nil || now[point] != h.table[point] {
			for w := range *set {
				notify = append(notify, w.notify)
			}
		}
	}
	if err == nil {
		h.table = now
	}
	h.mu.Unlock()
	for _, n := range notify {
		n()
	}
}
