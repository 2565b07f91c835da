package kernel

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Read waits for events and appends them to evs: one per path naming the
// watch an event came from. It returns ErrClosed once Close was called.
//
// Read returns holding the read turn, which Drain takes too: the caller
// handles the events it got and then calls Release, so a Drain never
// returns while events read before it are still being handled.
func (in *Instance) Read(evs []Event) ([]Event, error) {
	var n int
	var rerr error
	turn := false
	err := in.raw.Read(func(fd uintptr) bool {
		in.turn.Lock()
		n, rerr = readNow(int(fd), in.buf)
		if errors.Is(rerr, unix.EAGAIN) {
			// Drain took them; wait for more.
			in.turn.Unlock()
			return false
		}
		turn = true
		return true
	})
	if !turn {
		in.turn.Lock()
	}
	if err == nil {
		err = rerr
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	switch {
	case err != nil && (in.closed || errors.Is(err, os.ErrClosed)):
		// The poller reports a descriptor closed under it in its own
		// words.
		return evs, ErrClosed
	case err != nil:
		return evs, fmt.Errorf("inotify: reading events: %w", err)
	}
	return in.parse(evs, in.buf[:n]), nil
}

// Drain appends the events queued in the kernel now, without waiting. It
// returns holding the read turn, after any Read that returned before it
// was released; the caller handles the events, then calls Release.
func (in *Instance) Drain(evs []Event) ([]Event, error) {
	in.turn.Lock()
	in.mu.Lock()
	defer in.mu.Unlock()
	for !in.closed {
		n, err := readNow(in.fd, in.drainBuf)
		switch {
		case errors.Is(err, unix.EAGAIN):
			return evs, nil
		case errors.Is(err, unix.EINTR):
			continue
		case err != nil:
			return evs, fmt.Errorf("inotify: reading events: %w", err)
		}
		evs = in.parse(evs, in.drainBuf[:n])
	}
	return evs, ErrClosed
}

// readNow reads from the non-blocking descriptor fd without telling Go's
// scheduler about a system call, which could block: a read that cannot
// block needs no hand-off, and telling the scheduler wakes its monitor
// thread, which then polls every 20µs while the process is busy (half the
// CPU of an idle daemon beside a busy neighbour).
func readNow(fd int, p []byte) (int, error) {
	n, _, errno := unix.RawSyscall(unix.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(p))), uintptr(len(p)))
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}

// Release ends the read turn Read or Drain returned with.
func (in *Instance) Release() { in.turn.Unlock() }

// parse appends the events in raw. Callers hold in.mu.
func (in *Instance) parse(evs []Event, raw []byte) []Event {
	for len(raw) >= unix.SizeofInotifyEvent {
		// struct inotify_event: wd, mask, cookie, len, then len bytes of
		// NUL-padded name.
		wd := int32(binary.NativeEndian.Uint32(raw[0:]))
		mask := binary.NativeEndian.Uint32(raw[4:])
		cookie := binary.NativeEndian.Uint32(raw[8:])
		end := unix.SizeofInotifyEvent + int(binary.NativeEndian.Uint32(raw[12:]))
		name, _, _ := bytes.Cut(raw[unix.SizeofInotifyEvent:end], []byte{0})
		raw = raw[end:]
		in.events.Add(1)
		evs = in.name(evs, wd, Event{Mask: mask, Cookie: cookie}, string(name))
	}
	return evs
}

// name appends ev once for each path naming watch wd. Callers hold in.mu.
func (in *Instance) name(evs []Event, wd int32, ev Event, child string) []Event {
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
	for dir := range w.masks {
		ev.Path = join(dir, child)
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
