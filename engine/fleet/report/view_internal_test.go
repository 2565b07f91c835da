package report

import (
	"testing"
	"time"
)

// TestViewCells: how fleet status's table writes counts, revisions and
// ages.
func TestViewCells(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	cases := []struct{ got, want string }{
		{countNames(0, []string{"file#/a"}), "0"},
		{countNames(1, nil), "1 ()"},
		{countNames(2, []string{"file#/a", "file#/b"}), "2 (file#/a, file#/b)"},
		{countNames(5, []string{"file#/a", "file#/b", "file#/c"}), "5 (file#/a, file#/b, …)"},
		{countNames(1, []string{"file#/a\nb"}), `1 (file#/a\nb)`},
		{revisions(nil), "-"},
		{revisions([]Revision{{Source: "obj://b/k", Revision: "SHA-256=0123456789abcdef", Cached: true}, {Source: "kv://d/k", Revision: "7"}}),
			"obj://b/k@0123456789ab (cached) kv://d/k@7"},
		{appliedSince(nil, now), "never"},
		{appliedSince([]Revision{{Since: now.Add(-time.Hour)}, {Since: now.Add(-90 * time.Second)}, {}}, now), "1m30s ago"},
		{ago(now.Add(-1500*time.Millisecond), now), "2s ago"},
		{ago(time.Time{}, now), "never"},
		{summaryLine(nil), "0 hosts; 0 revision(s) applied"},
		{summaryLine([]HostView{{Standing: StandingStale, Group: "a"}, {Standing: StandingConverged, Group: "b"}, {Standing: StandingDuplicate, Group: "a"}}),
			"3 hosts: 1 converged, 1 duplicate, 1 STALE; 2 revision(s) applied"},
	}
	for i, c := range cases {
		if c.got != c.want {
			t.Errorf("case %d: %q, want %q", i, c.got, c.want)
		}
	}
	names := []string{"file#/a", "file#/b", "file#/c"}
	countNames(3, names)
	if names[2] != "file#/c" {
		t.Fatalf("countNames wrote over its caller's names: %v", names)
	}
}
