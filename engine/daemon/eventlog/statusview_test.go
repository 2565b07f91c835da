package eventlog_test

import (
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine/daemon/eventlog"
	"github.com/reactive-ccm/ccm/engine/daemon/status"
	"github.com/reactive-ccm/ccm/resources"
)

func TestWriteStatus(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.Local)
	mode := []resources.Difference{{Property: "mode", Observed: "0600", Desired: "0644"}}
	next := now.Add(90 * time.Second)
	r := status.Report{
		Counts:    status.Counts{Resources: 3, Converged: 1, Failed: 1, Paused: 1},
		PausedAll: &status.Pause{By: "root (sudo alice)"},
		Daemon: status.Daemon{Version: "1.2.3", PID: 42, Uptime: 3725.4, Watches: 7, Polled: 1, Overflows: 2,
			Reloads: 5, ReloadFailures: 1, LastConverged: now.Add(-time.Minute)},
		Resources: []status.Resource{
			{ID: "file#/a", Standing: status.Converged, LastChange: &status.Change{Time: now.Add(-time.Hour), Trigger: "drift", Changes: mode}},
			{ID: "exec#b", Standing: status.Failed, LastError: "exit status 1", NextRetry: &next,
				LastChange: &status.Change{Time: now, Trigger: "refresh", Refreshed: true}},
			{ID: "file#/c", Standing: status.Paused, Paused: &status.Pause{By: "bob", Until: now.Add(time.Hour)}, Drift: mode, Writer: "pid 7 (sed) uid 0"},
		},
	}
	var b strings.Builder
	if err := eventlog.WriteStatus(&b, r, now); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	lines := strings.Split(out, "\n")
	for i, want := range []string{
		"ccm 1.2.3, pid 42, up 1h2m5s; inotify: 7 watches, 1 polled paths, 2 overflows; reloads: 5 (1 failed)",
		eventlog.CountsLine(r.Counts, r.Daemon.LastConverged, now),
		"every resource paused by root (sudo alice) until resumed",
		"",
	} {
		if lines[i] != want {
			t.Errorf("line %d = %q, want %q", i+1, lines[i], want)
		}
	}
	for _, want := range []string{
		"STANDING   RESOURCE  LAST CHANGE",
		"converged  file#/a   " + now.Add(-time.Hour).Format(time.TimeOnly) + " drift: mode 0600 → 0644",
		now.Format(time.TimeOnly) + " refresh: refreshed       exit status 1; next try in 1m30s",
		"file#/c   -",
		"paused by bob " + eventlog.Until(now.Add(time.Hour), now) + "; would repair mode 0600 → 0644; changed by pid 7 (sed) uid 0",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("status lacks %q:\n%s", want, out)
		}
	}
}
