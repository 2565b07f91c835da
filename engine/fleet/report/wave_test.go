package report_test

import (
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine/fleet/release"
	"github.com/reactive-ccm/ccm/engine/fleet/report"
)

// TestWaveHealthTable: which hosts of a wave fail it, and when it is
// ready to widen: every host of the wave applies the revision and is
// converged or contested; hosts outside the wave do not count.
func TestWaveHealthTable(t *testing.T) {
	h := func(name string, inWave, applies bool, s report.Standing) report.WaveHost {
		return report.WaveHost{Status: report.Status{Host: name}, Standing: s, InWave: inWave, AppliesRevision: applies}
	}
	cases := []struct {
		name   string
		hosts  []report.WaveHost
		failed string
		ready  bool
	}{
		{"no host yet", nil, "", true},
		{"converged on the revision", []report.WaveHost{h("a", true, true, report.StandingConverged)}, "", true},
		{"contested on the revision", []report.WaveHost{h("a", true, true, report.StandingContested)}, "", true},
		{"still converging", []report.WaveHost{h("a", true, true, report.StandingConverging)}, "", false},
		{"converged on the old revision", []report.WaveHost{h("a", true, false, report.StandingConverged)}, "", false},
		{"stale", []report.WaveHost{h("a", true, true, report.StandingStale)}, "", false},
		{"behind", []report.WaveHost{h("a", true, false, report.StandingBehind)}, "", false},
		{"every failing standing is named", []report.WaveHost{
			h("a", true, true, report.StandingFailing), h("b", true, true, report.StandingUnhealthy), h("c", true, true, report.StandingRolledBack),
			h("d", true, false, report.StandingReload), h("e", true, false, report.StandingRefused), h("f", true, true, report.StandingDuplicate),
		}, "a failing, b unhealthy, c rolled-back, d reload-failed, e refused", false},
		{"outside the wave does not count", []report.WaveHost{h("a", false, false, report.StandingFailing), h("b", true, true, report.StandingConverged)}, "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := report.WaveHealth(c.hosts)
			if got != (release.WaveHealth{Failed: c.failed, Ready: c.ready}) {
				t.Fatalf("WaveHealth = %+v, want failed %q, ready %t", got, c.failed, c.ready)
			}
		})
	}
}

// TestJudgeEdges: the order of the standings where two apply, and what
// a host that applies nothing yet, or already applies what it once
// refused, is.
func TestJudgeEdges(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	targets := report.Targets{src: {Current: "A"}}
	cases := []struct {
		name string
		st   report.Status
		want report.Standing
	}{
		{"stale beats a duplicate", report.Status{Updated: now.Add(-time.Hour), Duplicate: "other"}, report.StandingStale},
		{"a duplicate beats a refusal", report.Status{Updated: now, Duplicate: "other", Refused: []report.Refusal{{Source: src, Revision: "A"}}}, report.StandingDuplicate},
		{"a refusal beats a failed reload", report.Status{Updated: now, ReloadError: "x", Refused: []report.Refusal{{Source: src, Revision: "A"}}}, report.StandingRefused},
		{"a failed reload beats failures", report.Status{Updated: now, ReloadError: "x", Failed: 1}, report.StandingReload},
		{"unhealthy beats rolled back", report.Status{Updated: now, Unhealthy: 1, RolledBack: 1}, report.StandingUnhealthy},
		{"rolled back beats behind", report.Status{Updated: now, RolledBack: 1, Applied: applying("B")}, report.StandingRolledBack},
		{"behind beats contested", report.Status{Updated: now, Contested: 1, Applied: applying("B")}, report.StandingBehind},
		{"contested beats pending", report.Status{Updated: now, Contested: 1, Pending: 1}, report.StandingContested},
		{"applies nothing yet", report.Status{Updated: now}, report.StandingConverged},
		{"refused the current revision, then applied it", report.Status{Updated: now, Applied: applying("A"), Refused: []report.Refusal{{Source: src, Revision: "A"}}}, report.StandingConverged},
		{"a refusal of another source", report.Status{Updated: now, Applied: applying("A"), Refused: []report.Refusal{{Source: "obj://ccm/other.tgz", Revision: "A"}}}, report.StandingConverged},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := report.Judge(c.st, targets, now); got != c.want {
				t.Fatalf("Judge = %s, want %s", got, c.want)
			}
		})
	}
}
