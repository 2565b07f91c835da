package systemdtest

import (
	"context"
	"testing"
	"time"
)

// Install writes a unit as WriteUnit does and has systemd load it. When
// t ends the unit is disabled and stopped: the suite's systemd outlives
// the test, and nothing of the test stays running in it.
func (s *Systemd) Install(t testing.TB, name, content string) {
	t.Helper()
	if err := s.WriteUnit(name, content); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Systemctl(t.Context(), "daemon-reload"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// t's context is cancelled before its cleanups run.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(t.Context()), 10*time.Second)
		defer cancel()
		_, _ = s.Systemctl(ctx, "disable", "--now", name)
	})
}
