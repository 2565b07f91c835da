package debfixture

import (
	"errors"
	"os"
	"sync"
	"syscall"
	"testing"
	"time"
)

// lockPath serialises fixture users across test binaries on one host:
// `go test ./...` runs packages at once, and each one's Purge would remove
// the packages another one installed.
const lockPath = "/run/lock/ccm-debfixture.lock"

// held is this process's hold on the lock, shared by its tests, so a
// Repo made inside a test that already has one does not wait for itself.
var held struct {
	sync.Mutex
	users int
	file  *os.File
}

// lock holds the host-wide fixture lock until the test ends, waiting
// while another test binary holds it.
func lock(t testing.TB) {
	t.Helper()
	held.Lock()
	defer held.Unlock()
	if held.users == 0 {
		held.file = acquire(t)
	}
	held.users++
	// Cleanups run last registered first, so this one runs after the
	// final Purge.
	t.Cleanup(func() {
		held.Lock()
		defer held.Unlock()
		if held.users--; held.users == 0 {
			held.file.Close()
		}
	})
}

func acquire(t testing.TB) *os.File {
	t.Helper()
	if err := os.MkdirAll("/run/lock", 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(lockPath, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return f
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			t.Fatalf("debfixture: locking %s: %v", lockPath, err)
		}
		select {
		case <-t.Context().Done():
			f.Close()
			t.Fatalf("debfixture: waiting for another test binary's fixtures: %v", t.Context().Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}
