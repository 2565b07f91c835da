package nonblock_test

import (
	"errors"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/reactive-ccm/ccm/watchers/internal/nonblock"
)

func TestRead(t *testing.T) {
	var fds [2]int
	if err := unix.Pipe2(fds[:], unix.O_NONBLOCK|unix.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(fds[0]); unix.Close(fds[1]) })
	buf := make([]byte, 16)
	if _, err := nonblock.Read(fds[0], buf); !errors.Is(err, unix.EAGAIN) {
		t.Fatalf("reading an empty pipe: %v, want EAGAIN", err)
	}
	if _, err := unix.Write(fds[1], []byte("event")); err != nil {
		t.Fatal(err)
	}
	n, err := nonblock.Read(fds[0], buf)
	if err != nil || string(buf[:n]) != "event" {
		t.Fatalf("read %q, %v; want \"event\"", buf[:n], err)
	}
}
