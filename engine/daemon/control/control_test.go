package control_test

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine/daemon/control"
	"github.com/reactive-ccm/ccm/engine/daemon/status"
	"github.com/reactive-ccm/ccm/internal/ownership"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

func TestMain(m *testing.M) { os.Exit(resourcetest.Main(m)) }

// daemon is a Controller with nothing to control.
type daemon struct{}

func (daemon) Status() status.Report              { return status.Report{Counts: status.Counts{Resources: 7}} }
func (daemon) Pause([]string, status.Pause) error { return nil }
func (daemon) PauseAll(status.Pause)              {}
func (daemon) Resume([]string) error              { return nil }
func (daemon) ResumeAll()                         {}
func (daemon) Recheck()                           {}
func (daemon) RecheckResource(string) error       { return nil }

var _ control.Controller = daemon{}

// serve serves daemon{} at path until the test ends.
func serve(t *testing.T, path string) {
	t.Helper()
	serveAt(t, path, daemon{})
}

func TestTheSocketIsPrivateAndRemovedAfter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run", "ccm.sock")
	t.Run("serve", func(t *testing.T) {
		serve(t, path)
		for _, p := range []string{filepath.Dir(path), path} {
			fi, err := os.Lstat(p)
			if err != nil {
				t.Fatal(err)
			}
			if want := map[bool]os.FileMode{true: 0o700, false: 0o600}[p != path]; fi.Mode().Perm() != want {
				t.Errorf("%s: mode %04o, want %04o", p, fi.Mode().Perm(), want)
			}
		}
		rep, err := control.NewClient(path).Status(t.Context())
		if err != nil || rep.Counts.Resources != 7 {
			t.Fatalf("status %+v, %v", rep, err)
		}
	})
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Fatalf("the socket stayed: %v", err)
	}
}

func TestListenRefusesADirectoryOthersReach(t *testing.T) {
	home := resourcetest.NobodyHome(t)
	resourcetest.AsNobody(t, "mkdir", home+"/theirs", "0700")
	base := t.TempDir()
	for _, d := range []struct {
		dir  string
		mode os.FileMode
	}{{base + "/readable", 0o755}, {base + "/open", 0o777}, {home + "/root", 0o700}} {
		if err := os.Mkdir(d.dir, d.mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(d.dir, d.mode); err != nil {
			t.Fatal(err)
		}
	}
	for dir, want := range map[string]error{
		home + "/theirs":      ownership.ErrUnsafe,
		home + "/theirs/made": ownership.ErrUnsafe,
		home + "/root":        ownership.ErrUnsafe,
		base + "/open":        ownership.ErrUnsafe,
		base + "/readable":    control.ErrUnsafeDir,
	} {
		path := filepath.Join(dir, "ccm.sock")
		if _, err := control.Listen(path, daemon{}, slog.New(slog.DiscardHandler)); !errors.Is(err, want) {
			t.Errorf("Listen(%s) = %v, want %v", path, err, want)
		}
		if _, err := os.Lstat(path); !os.IsNotExist(err) {
			t.Errorf("%s: a socket was made: %v", path, err)
		}
	}
}

// The attack of issue 23: a user swaps the socket for a link to a file of
// root's between listen and chmod. Under --allow-unsafe-ownership the
// user's directory is used; the file still never changes.
func TestASocketSwappedForALinkChangesNothing(t *testing.T) {
	home := resourcetest.NobodyHome(t)
	dir := home + "/run"
	resourcetest.AsNobody(t, "mkdir", dir, "0700")
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	resourcetest.AsNobody(t, "symlink", victim, dir+"/link")
	ownership.Allow(func(*ownership.UnsafeError) {})
	defer ownership.Allow(nil)
	path := dir + "/ccm.sock"
	stop := resourcetest.Race(t, "exchange", path, dir+"/link")
	listened := 0
	for range 200 {
		srv, err := control.Listen(path, daemon{}, slog.New(slog.DiscardHandler))
		if err != nil {
			continue
		}
		listened++
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		if err := srv.Serve(ctx); err != nil {
			t.Fatal(err)
		}
	}
	swaps := stop()
	t.Logf("%d listens, %d swaps", listened, swaps)
	if fi, err := os.Stat(victim); err != nil || fi.Mode().Perm() != 0o644 {
		t.Fatalf("the victim's mode: %v, %v", fi.Mode(), err)
	}
}

func TestAClientBelievesNoDaemonAnotherUserRuns(t *testing.T) {
	home := resourcetest.NobodyHome(t)
	path := home + "/ccm.sock"
	if held, _ := resourcetest.Hold(t, "serve", path); held != 1 {
		t.Fatalf("uid %d serves %d sockets", resourcetest.Nobody, held)
	}
	_, err := control.NewClient(path).Status(t.Context())
	if !errors.Is(err, control.ErrNotTrusted) {
		t.Fatalf("status from uid %d's daemon: %v; want ErrNotTrusted", resourcetest.Nobody, err)
	}
	t.Log(err)
}

func TestPauseAndResumeNameResourcesOrAll(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run", "ccm.sock")
	serve(t, path)
	c := control.NewClient(path)
	for _, r := range []struct {
		name string
		req  control.PauseRequest
		ok   bool
	}{
		{"resources", control.PauseRequest{Resources: []string{"file#/a"}}, true},
		{"all for a while", control.PauseRequest{All: true, For: time.Minute}, true},
		{"neither", control.PauseRequest{}, false},
		{"both", control.PauseRequest{All: true, Resources: []string{"file#/a"}}, false},
		{"a negative duration", control.PauseRequest{All: true, For: -time.Second}, false},
	} {
		t.Run("pause "+r.name, func(t *testing.T) {
			if r.req.Valid() != r.ok {
				t.Fatalf("Valid() = %t, want %t", !r.ok, r.ok)
			}
			_, err := c.Pause(t.Context(), r.req)
			if r.ok != (err == nil) || (err != nil && !errors.Is(err, control.ErrRequest)) {
				t.Fatalf("the daemon answered %v", err)
			}
		})
	}
	for _, r := range []struct {
		name string
		req  control.ResumeRequest
		ok   bool
	}{
		{"resources", control.ResumeRequest{Resources: []string{"file#/a"}}, true},
		{"all", control.ResumeRequest{All: true}, true},
		{"neither", control.ResumeRequest{}, false},
		{"both", control.ResumeRequest{All: true, Resources: []string{"file#/a"}}, false},
	} {
		t.Run("resume "+r.name, func(t *testing.T) {
			if r.req.Valid() != r.ok {
				t.Fatalf("Valid() = %t, want %t", !r.ok, r.ok)
			}
			if err := c.Resume(t.Context(), r.req); r.ok != (err == nil) || (err != nil && !errors.Is(err, control.ErrRequest)) {
				t.Fatalf("the daemon answered %v", err)
			}
		})
	}
}
