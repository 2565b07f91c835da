package resourcetest

import (
	"errors"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// exitWait bounds WaitExited; it only ends a test that would otherwise
// hang on a process that survived its kill.
const exitWait = 10 * time.Second

// WaitExited waits for process pid to exit, through a pidfd, which
// becomes readable when the process exits (a zombie counts: it no longer
// runs). A process already gone passes. A process alive after 10s fails
// t, and is killed so that it does not outlive the test.
func WaitExited(t testing.TB, pid int) {
	t.Helper()
	fd, err := unix.PidfdOpen(pid, 0)
	if errors.Is(err, unix.ESRCH) {
		return
	}
	if err != nil {
		t.Fatalf("pidfd_open(%d): %v", pid, err)
	}
	defer unix.Close(fd)
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	n, err := unix.Poll(fds, int(exitWait.Milliseconds()))
	for errors.Is(err, unix.EINTR) {
		n, err = unix.Poll(fds, int(exitWait.Milliseconds()))
	}
	if err != nil {
		t.Fatalf("polling the pidfd of %d: %v", pid, err)
	}
	if n == 0 {
		_ = unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
		t.Fatalf("process %d did not exit within %s", pid, exitWait)
	}
}
