package kernel

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// Read waits for events and appends them to evs: one per path naming the
// watch an event came from. It returns ErrClosed once Close was called.
func (in *Instance) Read(evs []Event) ([]Event, error) {
	n, err := in.file.Read(in.buf)
	if errors.Is(err, os.ErrClosed) {
		return evs, ErrClosed
	}
	if err != nil {
		return evs, fmt.Errorf("inotify: reading events: %w", err)
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	for raw := in.buf[:n]; len(raw) >= unix.SizeofInotifyEvent; {
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
	return evs, nil
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
