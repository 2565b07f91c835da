package kernel

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// Handler receives the events of one read from the kernel. Their names
// point into the instance's read buffer, which is cleared when the
// handler returns and refilled by the next read: a handler copies what it
// keeps (Event.Path does) and keeps no Name. Events are handed over only
// this way, one read at a time, so no name can outlive its read.
type Handler func(evs []Event)

// Read hands each read of events to handle, waiting for events between
// reads, until Close: it returns ErrClosed then, or the error that
// stopped it reading. Read is for one reader goroutine; a Drain waits for
// its handler to return.
func (in *Instance) Read(handle Handler) error {
	in.handle, in.gotErr = handle, nil
	defer func() { in.handle = nil }()
	// One raw read for good: the poller forgets the readiness it saw
	// only when a raw read starts, so inside one, a wake-up is never lost
	// between two reads (readReady).
	err := in.raw.Read(in.reader)
	if err == nil {
		err = in.gotErr
	}
	return in.readError(err)
}

// readReady is Read's callback for the poller, called once the
// descriptor may be ready: it reads and hands over the events queued,
// and returns false to wait for the next, true only on an error.
func (in *Instance) readReady(fd uintptr) bool {
	for {
		// No need to wait for the turn: a Drain under way reads what
		// woke us. It reads until EAGAIN, never stopping at a read that
		// emptied the queue, since an event queued while it handles
		// that read may be what woke us, and we wait for the next;
		// events queued after its last read wake us again.
		if !in.turn.TryLock() {
			if in.missed != nil {
				in.missed()
			}
			return false
		}
		n, err := in.readFd(int(fd))
		switch {
		case err == unix.EAGAIN:
			// Drain took them; wait for more.
			in.turn.Unlock()
			return false
		case err != nil:
			in.gotErr = err
			in.turn.Unlock()
			return true
		}
		in.deliver(in.handle, n)
		in.turn.Unlock()
		if n <= readSize-maxEvent {
			// The read left room for the longest event, so it emptied
			// the queue (the kernel returns every queued event that
			// fits): an event queued since makes the descriptor ready
			// again, which the poller keeps until we wait. Reading again
			// to see EAGAIN, as a new raw read must, was a system call
			// more for each wake-up of a reader beside a busy neighbour.
			return false
		}
	}
}

// readError is what Read returns for err.
func (in *Instance) readError(err error) error {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.closed || errors.Is(err, os.ErrClosed) {
		// The poller reports a descriptor closed under it in its own
		// words.
		return ErrClosed
	}
	return fmt.Errorf("inotify: reading events: %w", err)
}

// Drain passes the events queued in the kernel now to handle, without
// waiting: one call per read, each returning before the next read. It
// starts once a handler of Read that is running returned, so when Drain
// returns, every event queued before it was called has been handled.
func (in *Instance) Drain(handle Handler) error {
	in.turn.Lock()
	defer in.turn.Unlock()
	for {
		n, err := in.readQueued()
		switch {
		case err == unix.EAGAIN:
			return nil
		case err != nil:
			return err
		}
		in.deliver(handle, n)
	}
}

// readQueued reads into buf without waiting. Callers hold the turn.
func (in *Instance) readQueued() (int, error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.closed {
		return 0, ErrClosed
	}
	n, err := in.readFd(in.fd)
	if err != nil && err != unix.EAGAIN {
		return 0, fmt.Errorf("inotify: reading events: %w", err)
	}
	return n, err
}

// readFd reads one batch of events from fd into buf. The kernel returns
// whole events only: as many as fit, or EINVAL when not even the next
// one does (buf always holds one). Its errors are read's bare errno,
// compared as such here and by its callers: errors.Is, on this path
// taken for every batch of events, was a twentieth of the reader's CPU.
func (in *Instance) readFd(fd int) (int, error) {
	for {
		n, err := in.read(fd, in.buf)
		if err != unix.EINTR {
			return n, err
		}
	}
}

// deliver hands the events in buf[:n] to handle, then clears them: a
// name kept past its handler reads as NULs, never as a later event's
// name, so a test sees the mistake. Callers hold the turn.
func (in *Instance) deliver(handle Handler, n int) {
	in.mu.Lock()
	in.evs = in.parse(in.evs[:0], in.buf[:n])
	in.mu.Unlock()
	if len(in.evs) > 0 {
		handle(in.evs)
	}
	clear(in.buf[:n])
	clear(in.evs)
}

// parse appends the events in raw. A record cut short, which the kernel
// never sends, stops parsing and is reported as a queue overflow: events
// were lost, and everything must be looked at again. Callers hold in.mu.
func (in *Instance) parse(evs []Event, raw []byte) []Event {
	for len(raw) > 0 {
		// struct inotify_event: wd, mask, cookie, len, then len bytes of
		// NUL-padded name.
		if len(raw) < unix.SizeofInotifyEvent {
			return in.name(evs, -1, Event{Mask: unix.IN_Q_OVERFLOW})
		}
		wd := int32(binary.NativeEndian.Uint32(raw[0:]))
		mask := binary.NativeEndian.Uint32(raw[4:])
		cookie := binary.NativeEndian.Uint32(raw[8:])
		size := uint64(binary.NativeEndian.Uint32(raw[12:]))
		if size > uint64(len(raw)-unix.SizeofInotifyEvent) {
			return in.name(evs, -1, Event{Mask: unix.IN_Q_OVERFLOW})
		}
		end := unix.SizeofInotifyEvent + int(size)
		name, _, _ := bytes.Cut(raw[unix.SizeofInotifyEvent:end], []byte{0})
		raw = raw[end:]
		in.events.Add(1)
		evs = in.name(evs, wd, Event{Name: name, Mask: mask, Cookie: cookie})
	}
	return evs
}

// name appends ev once for each path naming watch wd. Callers hold in.mu.
func (in *Instance) name(evs []Event, wd int32, ev Event) []Event {
	if ev.Has(unix.IN_Q_OVERFLOW) {
		in.dropRetired()
		return append(evs, ev)
	}
	w, ok := in.byWd[wd]
	if !ok {
		// A watch forgotten before its last events were read.
		return evs
	}
	if ev.Has(unix.IN_IGNORED) {
		in.forget(w)
		return evs
	}
	for _, p := range w.paths {
		ev.Dir = p.dir
		evs = append(evs, ev)
	}
	return evs
}

// dropRetired forgets the removed watches: an overflow may have dropped
// their IN_IGNORED. Callers hold in.mu.
func (in *Instance) dropRetired() {
	for wd, w := range in.byWd {
		if w.retired {
			delete(in.byWd, wd)
		}
	}
}
