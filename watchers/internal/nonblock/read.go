// Package nonblock reads the non-blocking descriptors of the watchers
// (inotify, fanotify) the cheap way.
package nonblock

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// Read reads from fd, which must be non-blocking, without telling Go's
// scheduler about a system call: that is for calls that may block, and
// the first one after the process was idle wakes the scheduler's monitor
// thread, which then polls every 20µs for as long as the process is busy.
// For a daemon woken by events nobody watches, that was half its CPU.
func Read(fd int, p []byte) (int, error) {
	n, _, errno := unix.RawSyscall(unix.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(p))), uintptr(len(p)))
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}
