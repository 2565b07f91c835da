package apt

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A child process holds the lock: fcntl locks of this process would be
// invisible to its own F_GETLK.
const lockHolderEnv = "CCM_TEST_HOLD_LOCK"

func TestMain(m *testing.M) {
	if path := os.Getenv(lockHolderEnv); path != "" {
		os.Exit(holdLock(path))
	}
	os.Exit(m.Run())
}

// holdLock takes a write lock on path, says so on stdout and keeps it
// until stdin closes.
func holdLock(path string) int {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o640)
	if err != nil {
		return 1
	}
	lk := syscall.Flock_t{Type: syscall.F_WRLCK}
	if err := syscall.FcntlFlock(f.Fd(), syscall.F_SETLK, &lk); err != nil {
		return 1
	}
	os.Stdout.WriteString("locked\n")
	buf := make([]byte, 1)
	_, _ = os.Stdin.Read(buf)
	return 0
}

func TestWaitIdleWaitsForTheLockHolder(t *testing.T) {
	lock := filepath.Join(t.TempDir(), "lock-frontend")
	saved := lockFiles
	lockFiles = []string{lock, filepath.Join(t.TempDir(), "lock")}
	t.Cleanup(func() { lockFiles = saved })

	child := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^$")
	child.Env = append(os.Environ(), lockHolderEnv+"="+lock)
	release, err := child.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := out.Read(make([]byte, 7)); err != nil {
		t.Fatalf("lock holder did not start: %v", err)
	}

	done := make(chan error, 1)
	go func() { done <- New(Options{}).WaitIdle(t.Context()) }()
	select {
	case err := <-done:
		t.Fatalf("WaitIdle returned %v while the lock was held", err)
	case <-time.After(10 * lockPoll):
	}
	release.Close()
	if err := child.Wait(); err != nil {
		t.Fatalf("lock holder: %v", err)
	}
	if err := <-done; err != nil {
		t.Errorf("WaitIdle after release: %v", err)
	}
}

func TestWaitIdleReturnsAtOnceWithoutLocks(t *testing.T) {
	saved := lockFiles
	lockFiles = []string{filepath.Join(t.TempDir(), "missing")}
	t.Cleanup(func() { lockFiles = saved })
	ctx, cancel := context.WithTimeout(t.Context(), time.Second)
	defer cancel()
	if err := New(Options{}).WaitIdle(ctx); err != nil {
		t.Errorf("WaitIdle = %v, want nil", err)
	}
}
