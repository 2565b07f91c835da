package engine_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/resources"
)

// plugin writes a Nagios plugin that exits with the code held in the
// file status, printing it, and returns the plugin's path and a setter.
func plugin(t *testing.T, code string) (string, func(code string)) {
	t.Helper()
	dir := t.TempDir()
	status := filepath.Join(dir, "status")
	set := func(code string) {
		if err := os.WriteFile(status, []byte(code), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	set(code)
	p := filepath.Join(dir, "check_app")
	body := "#!/bin/sh\ncode=$(cat " + status + ")\necho \"status $code\"\nexit $code\n"
	if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p, set
}

func TestOneShotHealthChecks(t *testing.T) {
	tests := []struct {
		name     string
		code     string
		props    string
		opts     engine.Options
		wantApp  func(*engine.Event) bool
		wantNext bool // whether app#next, requiring app, runs
	}{
		{"OK passes", "0", "", engine.Options{}, func(ev *engine.Event) bool {
			return !ev.Failed && len(ev.HealthChecks) == 1 && ev.HealthChecks[0].Status == resources.HealthOK
		}, true},
		{"WARNING is reported, not a failure", "1", "", engine.Options{}, func(ev *engine.Event) bool {
			return !ev.Failed && ev.HealthChecks[0].Status == resources.HealthWarning && ev.HealthChecks[0].Output == "status 1"
		}, true},
		{"CRITICAL fails the resource and blocks what requires it", "2", "", engine.Options{}, func(ev *engine.Event) bool {
			return ev.Failed && strings.Join(ev.Error, "") == "health check check_app CRITICAL: status 2"
		}, false},
		{"UNKNOWN fails the resource", "3", "", engine.Options{}, func(ev *engine.Event) bool {
			return ev.Failed && ev.HealthChecks[0].Status == resources.HealthUnknown
		}, false},
		{"a resource control skips is not checked", "2", "control: {if: false}", engine.Options{}, func(ev *engine.Event) bool {
			return ev.Skipped && len(ev.HealthChecks) == 0
		}, true},
		{"noop that would change runs no check", "2", "", engine.Options{Noop: true}, func(ev *engine.Event) bool {
			return !ev.Failed && ev.Changed && len(ev.HealthChecks) == 0
		}, true},
		{"monitor-only runs only the checks", "2", "", engine.Options{MonitorOnly: true}, func(ev *engine.Event) bool {
			return ev.Failed && ev.HealthCheckOnly && !ev.Changed && ev.HealthChecks[0].Status == resources.HealthCritical
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			check, _ := plugin(t, tt.code)
			g := load(t, `
- fake:
    - app:
        value: v1
        health_checks: [{command: '`+check+`'}]
        `+tt.props+`
    - next:
        value: v1
        require: [fake#app]
`)
			sum, rec := runOnce(t, g, tt.opts)
			evs := rec.byID()
			if app := evs["fake#app"]; !tt.wantApp(app) {
				t.Errorf("fake#app event %+v", app)
			}
			if ran := !evs["fake#next"].Skipped; ran != tt.wantNext {
				t.Errorf("fake#next ran: %v, want %v (%+v)", ran, tt.wantNext, evs["fake#next"])
			}
			if tt.opts.MonitorOnly && w.get("app") != "" {
				t.Errorf("monitor-only changed the resource: %q", w.get("app"))
			}
			if want := len(evs["fake#app"].HealthChecks); sum.Health.Checked != want {
				t.Errorf("summary counts %d checks, want %d", sum.Health.Checked, want)
			}
		})
	}
}

// TestWatchRemediatesAnUnhealthyResource: a periodic check that turns
// CRITICAL marks the resource unhealthy, reported once; remediation
// refreshes it (a service would restart) at once, then backing off, until
// the check passes again.
func TestWatchRemediatesAnUnhealthyResource(t *testing.T) {
	w, set, run := watchCheckedApp(t, engine.RetryPolicy{Base: 5 * time.Millisecond, Max: 20 * time.Millisecond})
	first := run.next(func(ev *engine.Event) bool { return ev.ID() == "fake#app" })
	if first.Failed || len(first.HealthChecks) != 1 {
		t.Fatalf("first run %+v, want converged and checked", first)
	}
	period := "poll:" + time.Minute.String()

	run.src.fire(period)
	set("2")
	run.src.fire(period)
	bad := run.next(func(ev *engine.Event) bool { return ev.ID() == "fake#app" })
	if !bad.Failed || bad.HealthChecks[0].Status != resources.HealthCritical {
		t.Fatalf("event %+v, want the CRITICAL check reported", bad)
	}
	// The first remediation runs at once; the check still fails.
	w.awaitRefresh(t, "app")
	run.idle()
	run.none("a failure reported again", func(ev *engine.Event) bool { return ev.ID() == "fake#app" })
	// The next waits its back-off.
	set("0")
	run.advance(time.Second)
	w.awaitRefresh(t, "app")
	good := run.next(func(ev *engine.Event) bool { return ev.ID() == "fake#app" })
	if good.Failed || !good.Refreshed || good.HealthChecks[0].Status != resources.HealthOK {
		t.Fatalf("event %+v, want a refresh that left the resource healthy", good)
	}
	if st := run.e.State(); st.Unhealthy != 0 || st.Converged != 1 {
		t.Errorf("state %+v, want converged", st)
	}

	// A result that does not change is not reported again.
	set("1")
	run.src.fire(period)
	warn := run.next(func(ev *engine.Event) bool { return ev.ID() == "fake#app" })
	if warn.Failed || warn.HealthChecks[0].Status != resources.HealthWarning {
		t.Fatalf("event %+v, want a WARNING reported once", warn)
	}
	run.src.fire(period)
	set("0")
	run.src.fire(period)
	back := run.next(func(ev *engine.Event) bool { return ev.ID() == "fake#app" })
	if back.HealthChecks[0].Status != resources.HealthOK {
		t.Fatalf("the repeated WARNING was reported again: %+v", back)
	}
}

// TestWatchProbesHealthDuringBackOff: while an unhealthy resource waits on
// a long back-off, its periodic checks still probe its health. A probe
// that fails changes nothing (no run, no remediation); one that passes
// ends the back-off at once, and the resource runs and is converged again,
// long before the deadline. A failed check (not unhealthy) is not probed.
func TestWatchProbesHealthDuringBackOff(t *testing.T) {
	w, set, run := watchCheckedApp(t, engine.RetryPolicy{Base: time.Hour, Max: 10 * time.Hour})
	isApp := func(ev *engine.Event) bool { return ev.ID() == "fake#app" }
	run.next(isApp)
	period := "poll:" + time.Minute.String()

	set("2")
	run.src.fire(period)
	if bad := run.next(isApp); !bad.Failed {
		t.Fatalf("event %+v, want the CRITICAL check reported", bad)
	}
	w.awaitRefresh(t, "app") // the first remediation, at once; it fails
	run.idle()
	checks, refreshes := w.checked("app"), w.refreshCount("app")

	// Still failing: the probe neither runs nor remediates the resource.
	run.src.fire(period)
	run.idle()
	run.none("a run after a failing probe", isApp)
	if c, r := w.checked("app"), w.refreshCount("app"); c != checks || r != refreshes {
		t.Fatalf("a failing probe ran the resource: checks %d→%d, refreshes %d→%d", checks, c, refreshes, r)
	}

	// Healthy again: the next probe ends the back-off without time moving.
	set("0")
	run.src.fire(period)
	run.idle()
	good := run.nextNow(t, isApp)
	if good.Failed || good.HealthChecks[0].Status != resources.HealthOK {
		t.Fatalf("event %+v, want the resource healthy again", good)
	}
	if st := run.e.State(); st.Unhealthy != 0 || st.Converged != 1 {
		t.Errorf("state %+v, want converged", st)
	}

	// A failed check is no health failure: a passing check ends nothing.
	w.mu.Lock()
	w.failing["app"] = true
	w.mu.Unlock()
	run.src.fire(period)
	if bad := run.next(isApp); !bad.Failed {
		t.Fatalf("event %+v, want the failed check reported", bad)
	}
	run.idle()
	checks = w.checked("app")
	run.src.fire(period)
	run.idle()
	run.none("a failed check retried by a passing health check", isApp)
	if c := w.checked("app"); c != checks {
		t.Fatalf("a failed check was retried before its back-off: checks %d→%d", checks, c)
	}
}

// refreshCount returns how many times name was refreshed.
func (w *world) refreshCount(name string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.refreshes[name]
}

// nextNow returns the first event matching keep already emitted; callers
// wait for idle first.
func (w *watching) nextNow(t *testing.T, keep func(*engine.Event) bool) *engine.Event {
	t.Helper()
	for {
		select {
		case ev := <-w.events:
			if keep(ev) {
				return ev
			}
		default:
			t.Fatal("no event: the resource did not run")
			return nil
		}
	}
}

// watchCheckedApp watches fake#app, whose health check passes until set
// says otherwise, checked every minute (the path "poll:1m0s") and retried
// on retry.
func watchCheckedApp(t *testing.T, retry engine.RetryPolicy) (*world, func(string), *watching) {
	w := newWorld(t)
	check, set := plugin(t, "0")
	g := load(t, `
- fake:
    - app:
        value: v1
        health_checks: [{command: '`+check+`'}]
`)
	return w, set, startWatching(t, g, engine.Options{HealthInterval: time.Minute, Retry: retry})
}
