package status_test

import (
	"slices"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine/daemon/status"
)

func TestCountsAddAndRemoveByStanding(t *testing.T) {
	var c status.Counts
	// Standings holds every standing, so one of each counts each once.
	all := append(slices.Clone(status.Standings), "something new")
	for _, s := range all {
		c.Add(s)
	}
	want := status.Counts{Resources: 9, Converged: 1, Failed: 1, Unhealthy: 1, RolledBack: 1, Blocked: 1, Contested: 1, Paused: 1, Pending: 2}
	if c != want {
		t.Fatalf("after one of each: %+v, want %+v (an unknown standing counts as pending)", c, want)
	}
	for _, s := range status.Standings {
		want := 1
		if s == status.Pending {
			want = 2 // with the unknown one
		}
		if n := c.Of(s); n != want {
			t.Errorf("Of(%s) = %d, want %d", s, n, want)
		}
	}
	for _, s := range all {
		c.Remove(s)
	}
	if c != (status.Counts{}) {
		t.Fatalf("after removing each again: %+v", c)
	}
}

func TestPauseActive(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	for _, c := range []struct {
		name string
		p    *status.Pause
		want bool
	}{
		{"no pause", nil, false},
		{"until resumed", &status.Pause{By: "root", Since: now.Add(-time.Hour)}, true},
		{"ending later", &status.Pause{Until: now.Add(time.Second)}, true},
		{"ending now", &status.Pause{Until: now}, false},
		{"ended", &status.Pause{Until: now.Add(-time.Second)}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.p.Active(now); got != c.want {
				t.Fatalf("Active = %t, want %t", got, c.want)
			}
		})
	}
}
