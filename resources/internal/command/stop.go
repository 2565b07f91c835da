package command

import (
	"fmt"
	"sync"
	"syscall"
	"time"
)

// stopper stops a program's process group when its run is cancelled:
// SIGTERM at once, SIGKILL when the group is still there after the grace
// period, and remembers which it took.
type stopper struct {
	grace time.Duration
	mu    sync.Mutex
	// termed is set once SIGTERM was sent, killed once SIGKILL was.
	termed, killed bool
	// exited is closed when the run is over: no signal after that.
	exited chan struct{}
	once   sync.Once
}

func newStopper(grace time.Duration) *stopper {
	if grace <= 0 {
		grace = DefaultGrace
	}
	return &stopper{grace: grace, exited: make(chan struct{})}
}

// start sends SIGTERM to the process group of pid and arms the SIGKILL.
// os/exec calls it, once, when the run's context ends first.
func (s *stopper) start(pid int) error {
	s.mu.Lock()
	s.termed = true
	s.mu.Unlock()
	err := syscall.Kill(-pid, syscall.SIGTERM)
	go func() {
		t := time.NewTimer(s.grace)
		defer t.Stop()
		select {
		case <-s.exited:
		case <-t.C:
			s.mu.Lock()
			defer s.mu.Unlock()
			select {
			case <-s.exited:
			default:
				// Under s.mu, which done takes too: never a signal to a
				// group whose run is over, whose number may be reused.
				s.killed = true
				_ = syscall.Kill(-pid, syscall.SIGKILL)
			}
		}
	}()
	return err
}

// done ends the stopper's watch once the run is over.
func (s *stopper) done() {
	s.once.Do(func() {
		s.mu.Lock()
		close(s.exited)
		s.mu.Unlock()
	})
}

// outcome says how the program was stopped, for the error of its run.
func (s *stopper) outcome() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.killed:
		return fmt.Sprintf("its process group got SIGTERM, then SIGKILL when it had not exited after the %s grace period", s.grace)
	case s.termed:
		return fmt.Sprintf("its process group got SIGTERM and exited within the %s grace period", s.grace)
	}
	return "it had exited already"
}
