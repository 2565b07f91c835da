package engine_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/state"
)

// rollbackCase is a config (fake#conf, mirrored to a file) and the app
// that subscribes to it, whose health check fails CRITICAL while the
// config holds "bad".
type rollbackCase struct {
	w      *world
	dir    string
	mirror string
}

func newRollbackCase(t *testing.T, current string) *rollbackCase {
	t.Helper()
	c := &rollbackCase{w: newWorld(t), dir: t.TempDir()}
	c.mirror = filepath.Join(c.dir, "conf")
	c.w.set("conf", current)
	if err := os.WriteFile(c.mirror, []byte(current), 0o644); err != nil {
		t.Fatal(err)
	}
	check := filepath.Join(c.dir, "check_app")
	body := "#!/bin/sh\nif grep -q bad " + c.mirror + "; then echo \"CRITICAL: app cannot use $(cat " + c.mirror + ")\"; exit 2; fi\necho OK\n"
	if err := os.WriteFile(check, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return c
}

// manifest is the case's manifest with the config's desired value and
// extra properties for it.
func (c *rollbackCase) manifest(value, confProps string) string {
	return `
- fake:
    - conf:
        value: ` + value + `
        mirror: ` + c.mirror + `
        ` + confProps + `
    - app:
        value: running
        subscribe: [fake#conf]
        health_checks: [{command: ` + filepath.Join(c.dir, "check_app") + `}]
`
}

func TestOneShotRollback(t *testing.T) {
	tests := []struct {
		name          string
		value, props  string
		opts          engine.Options
		wantConf      string
		wantSummary   func(engine.Summary) bool
		wantRolledOne bool
	}{
		{"a change that breaks the subscriber is rolled back", "bad", "", engine.Options{Rollback: true}, "good",
			func(s engine.Summary) bool { return s.RolledBack == 1 && s.Failed == 0 && !s.OK() }, true},
		{"rollback: false on the resource keeps the change", "bad", "rollback: false", engine.Options{Rollback: true}, "bad",
			func(s engine.Summary) bool { return s.RolledBack == 0 && s.Failed == 1 }, false},
		{"rollback: true on the resource without --rollback", "bad", "rollback: true", engine.Options{}, "good",
			func(s engine.Summary) bool { return s.RolledBack == 1 }, true},
		{"off unless asked", "bad", "", engine.Options{}, "bad",
			func(s engine.Summary) bool { return s.RolledBack == 0 && s.Failed == 1 }, false},
		{"a change the subscriber takes is kept", "better", "", engine.Options{Rollback: true}, "better",
			func(s engine.Summary) bool { return s.OK() && s.Changed == 2 }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newRollbackCase(t, "good")
			sum, rec := runOnce(t, load(t, c.manifest(tt.value, tt.props)), tt.opts)
			if got := c.w.get("conf"); got != tt.wantConf {
				t.Errorf("conf = %q, want %q", got, tt.wantConf)
			}
			if !tt.wantSummary(sum) {
				t.Errorf("summary %+v", sum)
			}
			var rolled []*engine.Event
			for _, ev := range rec.events {
				if ev.RolledBack {
					rolled = append(rolled, ev)
				}
			}
			if (len(rolled) == 1) != tt.wantRolledOne {
				t.Fatalf("%d rolled-back events, want one: %v", len(rolled), tt.wantRolledOne)
			}
			if tt.wantRolledOne {
				ev := rolled[0]
				want := "fake#app health check check_app CRITICAL: CRITICAL: app cannot use bad"
				if ev.ID() != "fake#conf" || !ev.Failed || !ev.Changed || strings.Join(ev.Error, "") != want || ev.Trigger != engine.TriggerRollback {
					t.Errorf("rolled-back event %+v, want %q", ev, want)
				}
				if app := rec.byID()["fake#app"]; app.Failed || !app.Refreshed {
					t.Errorf("the app's last event %+v, want refreshed and healthy", app)
				}
			}
		})
	}
}

func TestNothingIsKeptWithoutAJudge(t *testing.T) {
	c := newRollbackCase(t, "good")
	runOnce(t, load(t, `
- fake:
    - conf: {value: bad, mirror: `+c.mirror+`}
    - app: {value: running, subscribe: [fake#conf]}
`), engine.Options{Rollback: true})
	if c.w.saves["conf"] != 0 || c.w.get("conf") != "bad" {
		t.Fatalf("saves %v, conf %q: a change no health check judges is neither kept nor rolled back", c.w.saves, c.w.get("conf"))
	}
}

// TestWatchRollbackHoldsReleasesAndSurvivesRestarts: a rolled-back
// resource keeps its last good state against drift, across a restart of
// ccm, until released or until its desired state changes again.
func TestWatchRollbackHoldsReleasesAndSurvivesRestarts(t *testing.T) {
	c := newRollbackCase(t, "good")
	st, err := state.Open(filepath.Join(t.TempDir(), "state"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	dir := t.TempDir()
	opts := engine.Options{Rollback: true, State: st, StateKey: "test"}
	isConf := func(ev *engine.Event) bool { return ev.ID() == "fake#conf" }
	run := startWatching(t, loadIn(t, dir, c.manifest("bad", "")), opts)

	back := run.next(func(ev *engine.Event) bool { return isConf(ev) && ev.RolledBack })
	if !back.Failed || c.w.get("conf") != "good" {
		t.Fatalf("event %+v, conf %q; want rolled back to good", back, c.w.get("conf"))
	}
	run.idle()
	if s := run.e.State(); s.RolledBack != 1 || s.Failed != 0 || s.Unhealthy != 0 {
		t.Fatalf("state %+v, want conf rolled back and the app healthy", s)
	}

	// Drift is repaired towards the last good state, never the bad one.
	c.w.set("conf", "other")
	run.e.Recheck()
	run.idle()
	if got := c.w.get("conf"); got != "good" {
		t.Fatalf("a held resource repaired to %q, want its last good state", got)
	}
	applies := slices.Clone(c.w.order())

	// A restart with the same manifest keeps holding it.
	run.stop()
	run = startWatching(t, loadIn(t, dir, c.manifest("bad", "")), opts)
	held := run.next(isConf)
	run.idle()
	if !held.RolledBack || held.Trigger != engine.TriggerStartup || !slices.Equal(c.w.order(), applies) {
		t.Fatalf("after a restart: %+v, applies %v (were %v); want held, nothing applied", held, c.w.order(), applies)
	}

	// Released, the change is made and rolled back again.
	if got := run.e.Release(); !slices.Equal(got, []string{"fake#conf"}) {
		t.Fatalf("released %v", got)
	}
	again := run.next(func(ev *engine.Event) bool { return isConf(ev) && ev.RolledBack })
	if !strings.Contains(strings.Join(again.Error, ""), "cannot use bad") || c.w.get("conf") != "good" {
		t.Fatalf("after release: %+v, conf %q", again, c.w.get("conf"))
	}

	// A new desired state ends the hold; one the app takes is kept.
	if _, err := run.e.Swap(t.Context(), loadIn(t, dir, c.manifest("better", ""))); err != nil {
		t.Fatal(err)
	}
	run.next(func(ev *engine.Event) bool { return isConf(ev) && ev.Changed && !ev.RolledBack })
	run.next(func(ev *engine.Event) bool { return ev.ID() == "fake#app" && ev.Refreshed && !ev.Failed })
	run.idle()
	if s := run.e.State(); s.RolledBack != 0 || c.w.get("conf") != "better" {
		t.Fatalf("state %+v, conf %q; want the new state kept", s, c.w.get("conf"))
	}
	if names, err := st.Sub("rollback"); err != nil {
		t.Fatal(err)
	} else if left, _ := names.Names(); len(left) != 0 {
		t.Errorf("rollback records left behind: %v", left)
	}
}

// TestResumeReleasesARolledBackResource: `ccm resume` (Resume and
// ResumeAll) releases a held resource as Release does.
func TestResumeReleasesARolledBackResource(t *testing.T) {
	for _, all := range []bool{false, true} {
		t.Run(map[bool]string{false: "named", true: "all"}[all], func(t *testing.T) {
			c := newRollbackCase(t, "good")
			st, err := state.Open(filepath.Join(t.TempDir(), "state"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			opts := engine.Options{Rollback: true, State: st, StateKey: "test"}
			rolledBack := func(ev *engine.Event) bool { return ev.ID() == "fake#conf" && ev.RolledBack }
			run := startWatching(t, loadIn(t, t.TempDir(), c.manifest("bad", "")), opts)
			run.next(rolledBack)
			run.idle()
			applies := len(c.w.order())

			if all {
				run.e.ResumeAll()
			} else if err := run.e.Resume([]string{"fake#conf"}); err != nil {
				t.Fatal(err)
			}
			again := run.next(rolledBack)
			run.idle()
			if !again.Failed || len(c.w.order()) <= applies || c.w.get("conf") != "good" {
				t.Fatalf("after resume: %+v, applies %v; want the change tried again and rolled back", again, c.w.order())
			}
		})
	}
}
