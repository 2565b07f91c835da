package eventlog_test

import (
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine/daemon/eventlog"
	"github.com/reactive-ccm/ccm/engine/daemon/status"
)

func TestCountsLine(t *testing.T) {
	for _, c := range []struct {
		name   string
		counts status.Counts
		last   time.Time
		want   string
	}{
		{"all converged", status.Counts{Resources: 3, Converged: 3}, time.Time{}, "3 resources: 3 converged"},
		{"every standing, in order", status.Counts{Resources: 9, Converged: 1, Failed: 1, Unhealthy: 1, RolledBack: 1, Blocked: 1, Contested: 1, Paused: 1, Pending: 2},
			time.Time{}, "9 resources: 1 converged, 1 failed, 1 unhealthy, 1 rolled back, 1 blocked, 1 contested, 1 paused, 2 pending"},
		{"last converged", status.Counts{Resources: 2, Converged: 1, Failed: 1}, at.Add(-90 * time.Second),
			"2 resources: 1 converged, 1 failed; last all converged 1m30s ago"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := eventlog.CountsLine(c.counts, c.last, at); got != c.want {
				t.Fatalf("CountsLine = %q\nwant %q", got, c.want)
			}
		})
	}
}

func TestUntil(t *testing.T) {
	if got := eventlog.Until(time.Time{}, at); got != "until resumed" {
		t.Fatalf("a pause without an end: %q", got)
	}
	end := at.Add(29*time.Minute + 400*time.Millisecond)
	if got, want := eventlog.Until(end, at), "until "+end.Local().Format(time.TimeOnly)+" (in 29m0s)"; got != want {
		t.Fatalf("Until = %q, want %q", got, want)
	}
}
