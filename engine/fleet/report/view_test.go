package report_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine/fleet/release"
	"github.com/reactive-ccm/ccm/engine/fleet/report"
)

// fleet is three hosts of src: web-1 converged on A, web-2 failing on A,
// db-1 behind on B and stale, with a refusal of A.
func fleet(now time.Time) []report.Status {
	return []report.Status{
		{Host: "web-1", Updated: now.Add(-2 * time.Second), Resources: 3, Converged: 3, Applied: applying("SHA-256=AAAAAAAAAAAAAAAA"),
			Sources: applying("SHA-256=AAAAAAAAAAAAAAAA"), LastConverged: now.Add(-time.Minute)},
		{Host: "web-2", Updated: now, Resources: 3, Failed: 2, FailedResources: []string{"file#/a", "file#/b"}, Applied: applying("SHA-256=AAAAAAAAAAAAAAAA")},
		{Host: "db-1", Updated: now.Add(-time.Hour), Resources: 1, Applied: applying("SHA-256=BBBBBBBBBBBBBBBB"),
			Refused: []report.Refusal{{Source: src, Revision: "SHA-256=AAAAAAAAAAAAAAAA", Reason: "bad signature", Time: now.Add(-90 * time.Second)}}},
	}
}

var fleetTargets = report.Targets{src: {Current: "SHA-256=AAAAAAAAAAAAAAAA"}}

func TestViewJudgesFiltersAndGroups(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	for _, c := range []struct {
		name   string
		filter report.Filter
		want   string
	}{
		{"every host", report.Filter{}, "web-1 converged A, web-2 failing A, db-1 STALE B"},
		{"by standing", report.Filter{Standing: report.StandingFailing}, "web-2 failing A"},
		{"stale", report.Filter{Stale: true}, "db-1 STALE B"},
		{"by revision", report.Filter{Revision: "BBB"}, "db-1 STALE B"},
		{"none", report.Filter{Revision: "CCC"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, h := range report.View(fleet(now), fleetTargets, now, c.filter) {
				got = append(got, h.Host+" "+string(h.Standing)+" "+h.Group[len(src)+1:len(src)+2])
			}
			if s := strings.Join(got, ", "); s != c.want {
				t.Fatalf("View = %q, want %q", s, c.want)
			}
		})
	}
}

func TestAllHealthy(t *testing.T) {
	for _, c := range []struct {
		standings []report.Standing
		want      bool
	}{
		{nil, true},
		{[]report.Standing{report.StandingConverged, report.StandingConverging, report.StandingContested}, true},
		{[]report.Standing{report.StandingConverged, report.StandingBehind}, false},
		{[]report.Standing{report.StandingStale}, false},
	} {
		var hosts []report.HostView
		for _, s := range c.standings {
			hosts = append(hosts, report.HostView{Standing: s})
		}
		if got := report.AllHealthy(hosts); got != c.want {
			t.Errorf("AllHealthy(%v) = %t, want %t", c.standings, got, c.want)
		}
	}
}

func TestPrintJSONIsTheStatusWithItsStanding(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	var b bytes.Buffer
	if err := report.PrintJSON(&b, report.View(fleet(now), fleetTargets, now, report.Filter{})); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("want a line per host, got:\n%s", b.String())
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(lines[1]), &got); err != nil {
		t.Fatal(err)
	}
	if got["host"] != "web-2" || got["standing"] != "failing" || got["failed"] != 2.0 {
		t.Fatalf("second line = %v, want web-2, failing, 2 failed", got)
	}
	if _, ok := got["Group"]; ok {
		t.Fatalf("the group is for the table only: %v", got)
	}
}

func TestPrintGroupsByRevisionThenAddsNotes(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	hosts := report.View(fleet(now), fleetTargets, now, report.Filter{})
	hosts[1].Duplicate, hosts[1].Instance = "pid 2", "pid 1"
	hosts[0].Contested, hosts[0].ContestedResources = 1, []string{"file#/etc/motd"}
	hosts[0].ContestedWriters = map[string]string{"file#/etc/motd": "pid 7 (sed)\n"}
	hosts[2].Standing = report.StandingRefused
	var b bytes.Buffer
	if err := report.Print(&b, hosts, now); err != nil {
		t.Fatal(err)
	}
	want := `3 hosts: 1 converged, 1 refused, 1 failing; 2 revision(s) applied

applying obj://ccm/site.tgz@AAAAAAAAAAAA (2):
HOST   STATE      RESOURCES  FAILED                CONTESTED           FETCHED                          APPLIED  CONVERGED  SEEN
web-1  converged  3          0                     1 (file#/etc/motd)  obj://ccm/site.tgz@AAAAAAAAAAAA  never    1m0s ago   2s ago
web-2  failing    3          2 (file#/a, file#/b)  0                   -                                never    never      0s ago

applying obj://ccm/site.tgz@BBBBBBBBBBBB (1):
HOST  STATE    RESOURCES  FAILED  CONTESTED  FETCHED  APPLIED  CONVERGED  SEEN
db-1  refused  1          0       0          -        never    never      1h0m0s ago
web-1: file#/etc/motd is changed by pid 7 (sed)\n
web-2: two processes report under this name (pid 1; pid 2); give each host its own --hostname
db-1 refused obj://ccm/site.tgz@AAAAAAAAAAAA 1m30s ago: bad signature
`
	if got := b.String(); got != want {
		t.Fatalf("Print wrote:\n%s\nwant:\n%s", got, want)
	}
}

func TestPrintWave(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	r := &release.Rollout{Seq: 4, Digest: "SHA-256=CCCCCCCCCCCCCCCC", Percent: 25, Started: now.Add(-time.Minute)}
	hosts := []report.WaveHost{
		{Status: report.Status{Host: "web-1", Updated: now.Add(-time.Second), Applied: applying(r.Digest)}, Standing: report.StandingConverged, InWave: true, AppliesRevision: true},
		{Status: report.Status{Host: "web-2", Updated: now}, Standing: report.StandingBehind, InWave: true},
		{Status: report.Status{Host: "db-1", Updated: now, Applied: applying("SHA-256=AAAA")}, Standing: report.StandingConverged},
	}
	var b bytes.Buffer
	if err := report.PrintWave(&b, "obj://ccm/site.tgz", r, hosts, now); err != nil {
		t.Fatal(err)
	}
	want := "obj://ccm/site.tgz: revision 4 (CCCCCCCCCCCC) to 25% of the hosts since " + r.Started.Local().Format(time.DateTime) + ": 2 of 3 hosts in the wave, 1 applied it\n" +
		`HOST   WAVE   STATE      APPLIED                          SEEN
web-1  true   converged  obj://ccm/site.tgz@CCCCCCCCCCCC  1s ago
web-2  true   behind     -                                0s ago
db-1   false  converged  obj://ccm/site.tgz@AAAA          0s ago
`
	if got := b.String(); got != want {
		t.Fatalf("PrintWave wrote:\n%s\nwant:\n%s", got, want)
	}
}
