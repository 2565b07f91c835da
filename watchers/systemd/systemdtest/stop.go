package systemdtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// Stop kills the namespace's systemd by its PID (the kernel then kills
// every process in the namespace), removes the empty cgroups it left,
// checks that the host was left untouched, and releases the harness lock.
func (s *Systemd) Stop() error {
	defer s.release()
	var errs []error
	if s.PID > 0 {
		if err := syscall.Kill(s.PID, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
			errs = append(errs, fmt.Errorf("systemdtest: killing systemd (PID %d): %w", s.PID, err))
		}
	}
	if s.unshare != nil {
		select {
		case <-s.exited:
		case <-time.After(30 * time.Second):
			errs = append(errs, fmt.Errorf("systemdtest: unshare (PID %d) did not exit after systemd was killed", s.unshare.Process.Pid))
		}
	}
	errs = append(errs, s.checkEmpty(), s.host.pruneCgroups(), s.host.verify())
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("%w\nsystemd log:\n%s", err, s.Log())
	}
	return os.RemoveAll(s.logDir)
}

// checkEmpty checks that no process of the namespace is left. A
// namespace's PID 1 does not finish exiting before the kernel has killed
// and reaped every other process in it, so once unshare has reaped it
// there is nothing to wait for.
func (s *Systemd) checkEmpty() error {
	if s.pidNS == "" {
		return nil
	}
	procs, err := s.processes()
	if err == nil && len(procs) > 0 {
		err = fmt.Errorf("systemdtest: processes %v of the namespace survived its PID 1", procs)
	}
	return err
}

func (s *Systemd) release() {
	if s.lock != nil {
		// Closing the file drops the flock.
		s.lock.Close()
		s.lock = nil
	}
}

// takeLock takes the host-wide harness lock, waiting while another
// harness holds it.
func takeLock(ctx context.Context) (*os.File, error) {
	if err := os.MkdirAll("/run/lock", 0o755); err != nil {
		return nil, fmt.Errorf("systemdtest: %w", err)
	}
	f, err := os.OpenFile(lockPath, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("systemdtest: %w", err)
	}
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, fmt.Errorf("systemdtest: locking %s: %w", lockPath, err)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("systemdtest: waiting for another harness to stop: %w", ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}
