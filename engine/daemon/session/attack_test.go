package session_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/reactive-ccm/ccm/engine/daemon/session"
	"github.com/reactive-ccm/ccm/internal/ownership"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

func TestMain(m *testing.M) { os.Exit(resourcetest.Main(m)) }

func TestStoresAnotherUserPreparedAreRefused(t *testing.T) {
	home := resourcetest.NobodyHome(t)
	open := filepath.Join(home, "open")
	resourcetest.AsNobody(t, "mkdir", open, "0777")
	theirs := filepath.Join(home, "theirs")
	resourcetest.AsNobody(t, "mkdir", theirs)
	for _, dir := range []string{open, theirs, filepath.Join(theirs, "new")} {
		if _, err := session.Create(dir); !errors.Is(err, ownership.ErrUnsafe) {
			t.Errorf("Create(%s) = %v, want ErrUnsafe", dir, err)
		}
		if _, err := session.Open(dir); !errors.Is(err, ownership.ErrUnsafe) && !os.IsNotExist(err) {
			t.Errorf("Open(%s) = %v, want ErrUnsafe", dir, err)
		}
	}
	if names, _ := filepath.Glob(home + "/*/*"); len(names) != 0 {
		t.Errorf("wrote into another user's directory: %v", names)
	}
}

func TestEventsAreReadOnlyFromRegularFilesCcmWrote(t *testing.T) {
	home := resourcetest.NobodyHome(t)
	dir := filepath.Join(home, "store")
	// The store is the user's: only --allow-unsafe-ownership reads it.
	resourcetest.AsNobody(t, "mkdir", dir)
	var warned []error
	ownership.Allow(func(e *ownership.UnsafeError) { warned = append(warned, e) })
	defer ownership.Allow(nil)
	s, err := session.Open(dir)
	if err != nil || len(warned) == 0 {
		t.Fatalf("Open under Allow = %v, warned %v", err, warned)
	}
	for name, attack := range map[string][]string{
		"fifo": {"fifo", filepath.Join(dir, "x.event")},
		"link": {"symlink", "/dev/zero", filepath.Join(dir, "x.event")},
	} {
		t.Run(name, func(t *testing.T) {
			resourcetest.AsNobody(t, attack[0], attack[1:]...)
			defer os.Remove(filepath.Join(dir, "x.event"))
			if _, err := s.Events(); !errors.Is(err, ownership.ErrNotRegular) {
				t.Fatalf("Events = %v, want ErrNotRegular", err)
			}
		})
	}
}

func TestEventsOthersWroteAreRefused(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a file to another user")
	}
	dir := filepath.Join(t.TempDir(), "session")
	s, err := session.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	names, _ := filepath.Glob(dir + "/*.event")
	if len(names) != 1 {
		t.Fatalf("events %v", names)
	}
	if fi, err := os.Stat(names[0]); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the start event's mode: %v, %v; want 0600", fi.Mode(), err)
	}
	forged := filepath.Join(dir, "z.event")
	if err := os.WriteFile(forged, []byte(`{"protocol":"`+session.StartProtocol+`"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(forged, resourcetest.Nobody, resourcetest.Nobody); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Events(); !errors.Is(err, ownership.ErrUnsafe) {
		t.Fatalf("Events = %v, want ErrUnsafe", err)
	}
	if err := os.WriteFile(forged, make([]byte, session.MaxEvent+1), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(forged, 0, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Events(); !errors.Is(err, ownership.ErrTooLarge) {
		t.Fatalf("Events = %v, want ErrTooLarge", err)
	}
}
