package scaffold

// The rollback story with a real engine: a scaffold whose new data breaks
// the exec subscribed to it (its health check fails CRITICAL) is put back
// as it was, held there against drift, and released by a new desired
// state.

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/engine"
	statedir "github.com/reactive-ccm/ccm/engine/daemon/state"
	"github.com/reactive-ccm/ccm/engine/enginetest"
	_ "github.com/reactive-ccm/ccm/resources/exec"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// rollbackStory is a manifest directory with templates rendering
// app.conf from the scaffold's port, and a check that fails CRITICAL
// unless the rendered port is a number.
type rollbackStory struct {
	dir, target, manifest string
}

func newRollbackStory(t *testing.T) *rollbackStory {
	t.Helper()
	dir := t.TempDir()
	s := &rollbackStory{dir: dir, target: filepath.Join(dir, "etc", "app"), manifest: filepath.Join(dir, "manifest.yaml")}
	resourcetest.WriteTree(t, dir, map[string]string{
		"templates/app.conf":   "port = [[ data.port ]]\n",
		"templates/motd":       "welcome\n",
		"templates/conf.d/log": "level = info\n",
	})
	conf := filepath.Join(s.target, "app.conf")
	resourcetest.WriteFile(t, filepath.Join(dir, "check_app"), "#!/bin/sh\n"+
		"if grep -Eq '^port = [0-9]+$' "+conf+"; then echo OK; exit 0; fi\n"+
		"echo \"CRITICAL - app refuses $(cat "+conf+")\"; exit 2\n", 0o755)
	return s
}

// write makes the manifest render port.
func (s *rollbackStory) write(t *testing.T, port string) {
	t.Helper()
	resourcetest.WriteFile(t, s.manifest, fmt.Sprintf(`
- scaffold:
    - %[1]s:
        source: templates
        purge: true
        data: {port: "%[2]s"}
- exec:
    - reload-app:
        command: /bin/true
        refreshonly: true
        subscribe: [scaffold#%[1]s]
        health_checks: [{command: %[3]s/check_app}]
`, s.target, port, s.dir), 0o644)
}

func (s *rollbackStory) conf(t *testing.T) string {
	t.Helper()
	return resourcetest.ReadFile(t, filepath.Join(s.target, "app.conf"))
}

func TestWatchRollbackOfAScaffold(t *testing.T) {
	s := newRollbackStory(t)
	st, err := statedir.Open(filepath.Join(t.TempDir(), "state"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	s.write(t, "8080")
	run := enginetest.StartFile(t, s.manifest, enginetest.Options{Engine: engine.Options{Rollback: true, State: st, StateKey: "story"}})
	id := "scaffold#" + s.target
	isExec := func(ev *engine.Event) bool { return ev.ID() == "exec#reload-app" }
	run.Changed(t, id)
	run.Settle(t)
	good := snapshot(t, s.target)

	s.write(t, "eighty")
	run.Reload(t, s.manifest)
	broken := run.Next(t, "the exec judging the change", isExec)
	if !broken.Failed || len(broken.HealthChecks) != 1 || broken.HealthChecks[0].Status != 2 {
		t.Fatalf("exec after the bad change: %+v, want its check CRITICAL", broken)
	}
	back := run.Next(t, "the scaffold rolled back", func(ev *engine.Event) bool { return ev.ID() == id })
	want := "exec#reload-app health check check_app CRITICAL: CRITICAL - app refuses port = eighty"
	if !back.RolledBack || !back.Failed || strings.Join(back.Error, "") != want {
		t.Fatalf("scaffold event %+v, want rolled back with %q", back, want)
	}
	if again := run.Next(t, "the exec refreshed on the old files", isExec); again.Failed || !again.Refreshed {
		t.Fatalf("exec event %+v, want refreshed and healthy", again)
	}
	run.Settle(t)
	if got := snapshot(t, s.target); !maps.Equal(got, good) {
		t.Fatalf("after the rollback\n%v\nwant\n%v", got, good)
	}
	if now := run.Engine().State(); now.RolledBack != 1 || now.Failed+now.Unhealthy != 0 {
		t.Fatalf("state %+v, want the scaffold rolled back and the exec converged", now)
	}

	// Held: drift goes back to the last good files, never to the change.
	resourcetest.WriteFile(t, filepath.Join(s.target, "app.conf"), "port = 1\n", 0o644)
	if err := os.Remove(filepath.Join(s.target, "conf.d/log")); err != nil {
		t.Fatal(err)
	}
	run.Changed(t, id)
	run.Settle(t)
	if got := snapshot(t, s.target); !maps.Equal(got, good) {
		t.Fatalf("a held scaffold repaired to\n%v\nwant\n%v", got, good)
	}

	// A new desired state ends the hold.
	s.write(t, "9090")
	run.Reload(t, s.manifest)
	run.Next(t, "the exec refreshed by the new port", func(ev *engine.Event) bool { return isExec(ev) && ev.Refreshed && !ev.Failed })
	run.Settle(t)
	if got := s.conf(t); got != "port = 9090\n" || run.Engine().State().RolledBack != 0 {
		t.Fatalf("app.conf %q, state %+v; want the new port kept", got, run.Engine().State())
	}
	if names, err := st.Sub("rollback"); err != nil {
		t.Fatal(err)
	} else if left, _ := names.Names(); len(left) != 0 {
		t.Errorf("rollback records left behind: %v", left)
	}
}
