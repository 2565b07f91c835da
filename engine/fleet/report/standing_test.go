package report_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/reactive-ccm/ccm/engine/fleet/natsconn/natstest"
	"github.com/reactive-ccm/ccm/engine/fleet/release"
	"github.com/reactive-ccm/ccm/engine/fleet/report"
	"github.com/reactive-ccm/ccm/engine/fleet/source"
)

const src = "obj://ccm/site.tgz"

func applying(rev string) []report.Revision { return []report.Revision{{Source: src, Revision: rev}} }

func TestJudge(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	fresh := report.Status{Host: "web-1", Updated: now, Resources: 3, Converged: 3, Applied: applying("A")}
	with := func(f func(*report.Status)) report.Status {
		st := fresh
		f(&st)
		return st
	}
	targets := report.Targets{src: {Current: "A"}}
	for _, c := range []struct {
		name string
		st   report.Status
		t    report.Targets
		want report.Standing
	}{
		{"converged on the current revision", fresh, targets, report.StandingConverged},
		{"judged on what it reports without a target", with(func(s *report.Status) { s.Applied = applying("B") }), nil, report.StandingConverged},
		{"silent for three heartbeats", with(func(s *report.Status) { s.Updated = now.Add(-4 * report.DefaultHeartbeat) }), targets, report.StandingStale},
		{"a second process under its name", with(func(s *report.Status) { s.Duplicate = "other" }), targets, report.StandingDuplicate},
		{"refused the current revision", with(func(s *report.Status) {
			s.Applied = applying("B")
			s.Refused = []report.Refusal{{Source: src, Revision: "A", Reason: "bad signature"}}
		}), targets, report.StandingRefused},
		{"a refusal of an older revision does not count", with(func(s *report.Status) {
			s.Refused = []report.Refusal{{Source: src, Revision: "Z"}}
		}), targets, report.StandingConverged},
		{"a failed reload", with(func(s *report.Status) { s.ReloadError = "does not compile" }), targets, report.StandingReload},
		{"a blocked resource", with(func(s *report.Status) { s.Blocked = 1 }), targets, report.StandingFailing},
		{"an unhealthy resource", with(func(s *report.Status) { s.Unhealthy = 1 }), targets, report.StandingUnhealthy},
		{"a rolled back change", with(func(s *report.Status) { s.RolledBack = 1 }), targets, report.StandingRolledBack},
		{"applying an older revision", with(func(s *report.Status) { s.Applied = applying("B") }), targets, report.StandingBehind},
		{"a contested resource", with(func(s *report.Status) { s.Contested = 1 }), targets, report.StandingContested},
		{"pending work", with(func(s *report.Status) { s.Pending = 1 }), targets, report.StandingConverging},
		{"failing beats behind", with(func(s *report.Status) { s.Failed, s.Applied = 1, applying("B") }), targets, report.StandingFailing},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := report.Judge(c.st, c.t, now); got != c.want {
				t.Fatalf("Judge = %s, want %s", got, c.want)
			}
		})
	}
}

func TestStandingHealthy(t *testing.T) {
	for s, want := range map[report.Standing]bool{
		report.StandingConverged: true, report.StandingConverging: true, report.StandingContested: true,
		report.StandingBehind: false, report.StandingStale: false, report.StandingRefused: false, report.StandingFailing: false,
	} {
		if s.Healthy() != want {
			t.Errorf("%s healthy: %t, want %t", s, !want, want)
		}
	}
}

// split returns a host in r's wave and one outside it.
func split(t *testing.T, r release.Rollout) (in, out string) {
	t.Helper()
	for i := 0; in == "" || out == ""; i++ {
		h := "web-" + strings.Repeat("x", i%7) + string(rune('a'+i%26))
		if release.InWave(h, r) {
			in = h
		} else {
			out = h
		}
	}
	return in, out
}

func TestTargetsOfTheWaveAreTheRolloutsRevision(t *testing.T) {
	r := release.Rollout{Seq: 2, Digest: "B", Percent: 50}
	in, out := split(t, r)
	tg := report.Targets{src: {Current: "A", Rollout: &r}}
	if got := tg.Of(in)[src]; got != "B" {
		t.Fatalf("a host of the wave should apply %q, want B", got)
	}
	if got := tg.Of(out)[src]; got != "A" {
		t.Fatalf("a host outside the wave should apply %q, want A", got)
	}
}

func TestWaveAndItsHealth(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	r := release.Rollout{Seq: 2, Digest: "B", Percent: 50}
	in, out := split(t, r)
	tg := report.Targets{src: {Current: "A", Rollout: &r}}
	host := func(name, rev string, failed int) report.Status {
		return report.Status{Host: name, Updated: now, Failed: failed, Applied: applying(rev)}
	}
	elsewhere := report.Status{Host: "db-1", Updated: now, Applied: []report.Revision{{Source: "obj://ccm/db.tgz", Revision: "X"}}}
	fetching := report.Status{Host: "new-1", Updated: now, Sources: applying("A")}

	wave := report.Wave([]report.Status{host(in, "A", 0), host(out, "A", 0), elsewhere, fetching}, tg, src, r, now)
	if len(wave) != 3 {
		t.Fatalf("the wave of %s holds %d hosts, want the 3 that run it: %+v", src, len(wave), wave)
	}
	if w := wave[0]; !w.InWave || w.AppliesRevision || w.Standing != report.StandingBehind {
		t.Fatalf("a host of the wave still on A: %+v", w)
	}
	if h := report.WaveHealth(wave); h.Ready || h.Failed != "" {
		t.Fatalf("a wave not yet applied: %+v", h)
	}

	wave = report.Wave([]report.Status{host(in, "B", 0), host(out, "A", 0)}, tg, src, r, now)
	if h := report.WaveHealth(wave); !h.Ready || h.Failed != "" {
		t.Fatalf("a wave that applied B and converged: %+v", h)
	}

	wave = report.Wave([]report.Status{host(in, "B", 1), host(out, "A", 1)}, tg, src, r, now)
	if h := report.WaveHealth(wave); h.Ready || h.Failed != in+" failing" {
		t.Fatalf("a failing host in the wave and one outside: %+v", h)
	}
}

func TestReadTargets(t *testing.T) {
	c := conn(t, lazy(t, natstest.Start(t, natstest.Options{})))
	ctx := t.Context()
	obs, err := release.Open(ctx, c.JetStream(), "ccm", true)
	if err != nil {
		t.Fatal(err)
	}
	info, err := obs.Put(ctx, jetstream.ObjectMeta{Name: "site.tgz"}, bytes.NewReader([]byte("current")))
	if err != nil {
		t.Fatal(err)
	}
	r, err := release.Stage(ctx, obs, "site.tgz", release.Bundle{Data: []byte("next")}, 0, 20)
	if err != nil {
		t.Fatal(err)
	}
	all := []report.Status{
		{Host: "a", Sources: applying(info.Digest)},
		{Host: "b", Sources: []report.Revision{{Source: "obj://ccm/missing.tgz"}, {Source: "https://example.com/x.tgz"}}},
	}
	got := report.ReadTargets(ctx, c.JetStream(), all)
	tg, ok := got[src]
	if len(got) != 1 || !ok || tg.Current != info.Digest || tg.Rollout == nil || tg.Rollout.Digest != r.Digest {
		t.Fatalf("targets: %+v", got)
	}
}

func TestFromSources(t *testing.T) {
	at := time.Unix(1_000_000, 0)
	revs, refused := report.FromSources([]source.Status{
		{Source: src, Revision: "A", Cached: true, Refused: &source.Refusal{Revision: "B", Reason: "bad signature", Time: at}},
		{Source: "kv://data/x", Revision: "7"},
	})
	wantRevs := []report.Revision{{Source: src, Revision: "A", Cached: true}, {Source: "kv://data/x", Revision: "7"}}
	wantRefused := []report.Refusal{{Source: src, Revision: "B", Reason: "bad signature", Time: at}}
	if !slices.Equal(revs, wantRevs) || !slices.Equal(refused, wantRefused) {
		t.Fatalf("FromSources = %+v, %+v", revs, refused)
	}
}

func TestFilterKeeps(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	const rev = "SHA-256=0123456789abcdefXYZ"
	st := report.Status{Host: "web-1", Updated: now, Applied: applying(rev)}
	for _, c := range []struct {
		name string
		f    report.Filter
		s    report.Standing
		want bool
	}{
		{"everything by default", report.Filter{}, report.StandingFailing, true},
		{"its standing", report.Filter{Standing: report.StandingFailing}, report.StandingFailing, true},
		{"another standing", report.Filter{Standing: report.StandingConverged}, report.StandingFailing, false},
		{"stale only", report.Filter{Stale: true}, report.StandingConverged, false},
		{"stale", report.Filter{Stale: true}, report.StandingStale, true},
		{"a digest prefix", report.Filter{Revision: "01234"}, report.StandingConverged, true},
		{"the whole short digest", report.Filter{Revision: "0123456789ab"}, report.StandingConverged, true},
		{"with its SHA-256= prefix", report.Filter{Revision: "SHA-256=0123456789abcdefX"}, report.StandingConverged, true},
		{"another revision", report.Filter{Revision: "abc"}, report.StandingConverged, false},
		{"every condition", report.Filter{Revision: "0123", Standing: report.StandingStale, Stale: true}, report.StandingStale, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.f.Keep(st, c.s); got != c.want {
				t.Fatalf("Keep = %t, want %t", got, c.want)
			}
		})
	}
}
