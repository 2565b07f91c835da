package apt

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"time"
)

// lockFiles are dpkg's locks: apt-get, and dpkg run by hand, hold
// lock-frontend for a whole run; dpkg holds lock while it changes its
// database.
var lockFiles = []string{"/var/lib/dpkg/lock-frontend", "/var/lib/dpkg/lock"}

const (
	// lockPoll is how often WaitIdle looks at the locks.
	lockPoll = 20 * time.Millisecond
	// lockWait bounds WaitIdle; after it, apt-get runs anyway and reports
	// who holds the lock.
	lockWait = 10 * time.Minute
)

// WaitIdle returns once no other program holds dpkg's locks, or after
// lockWait, or with ctx's error when ctx ends. A change is noticed as soon
// as dpkg writes its status file, while dpkg may still run; waiting lets
// that run finish, so the decision is made on its outcome and apt-get does
// not fail at once on the lock.
func (p *Provider) WaitIdle(ctx context.Context) error {
	deadline := time.NewTimer(lockWait)
	defer deadline.Stop()
	tick := time.NewTicker(lockPoll)
	defer tick.Stop()
	for {
		held, err := locked(lockFiles)
		if err != nil || !held {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-deadline.C:
			return nil
		case <-tick.C:
		}
	}
}

// locked reports whether another process holds a lock on any of paths.
// It asks with F_GETLK and never takes a lock itself.
func locked(paths []string) (bool, error) {
	for _, p := range paths {
		held, err := lockedFile(p)
		if err != nil || held {
			return held, err
		}
	}
	return false, nil
}

func lockedFile(path string) (bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("looking at dpkg's lock: %w", err)
	}
	defer f.Close()
	lk := syscall.Flock_t{Type: syscall.F_WRLCK}
	if err := syscall.FcntlFlock(f.Fd(), syscall.F_GETLK, &lk); err != nil {
		return false, fmt.Errorf("looking at dpkg's lock %s: %w", path, err)
	}
	return lk.Type != syscall.F_UNLCK, nil
}
