package report

import (
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/status"
)

func testReporter(t *testing.T) *Reporter {
	t.Helper()
	r, err := New(Options{Host: "web-1"})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestNewReporter(t *testing.T) {
	r := testReporter(t)
	if r.opts.Heartbeat != DefaultHeartbeat || r.status.Heartbeat != DefaultHeartbeat || r.subject != "ccm.events.web-1" || r.key != "web-1" || !r.dirty {
		t.Fatalf("reporter %+v", r)
	}
	if !strings.HasPrefix(r.status.Instance, "pid ") || !strings.Contains(r.status.Instance, " since ") {
		t.Fatalf("instance %q", r.status.Instance)
	}
	if _, err := New(Options{Host: "web 1"}); !errors.Is(err, ErrHostName) || !strings.Contains(err.Error(), `"web 1": use letters, digits, '-', '_' and dots between them (at most 255 bytes); set one with --hostname`) {
		t.Fatalf("a bad host name: %v", err)
	}
}

// TestEventCarriesTheHostFirst: each event is its JSON with the host's
// name put first, and the queue keeps the newest when full.
func TestEventCarriesTheHostFirst(t *testing.T) {
	r := testReporter(t)
	r.Event(&engine.Event{Type: "file", Name: "/etc/motd", Changed: true})
	if len(r.queue) != 1 || !strings.HasPrefix(string(r.queue[0].data), `{"host":"web-1","protocol":`) {
		t.Fatalf("queued %v", r.queue)
	}
	var ev map[string]any
	if err := json.Unmarshal(r.queue[0].data, &ev); err != nil || ev["name"] != "/etc/motd" || ev["changed"] != true {
		t.Fatalf("event %v, %v", ev, err)
	}
	for range queueSize + 1 {
		r.Event(&engine.Event{Type: "file"})
	}
	if len(r.queue) != queueSize || r.dropped != 2 || r.queue[0].seq != 3 || r.seq != queueSize+2 {
		t.Fatalf("a full queue holds %d, dropped %d, oldest seq %d, last %d", len(r.queue), r.dropped, r.queue[0].seq, r.seq)
	}
	if st := r.snapshot(); st.DroppedEvents != 2 {
		t.Fatalf("the status says %d dropped", st.DroppedEvents)
	}
}

// TestSettledCountsAndTimes: a settle copies the counts, and marks the
// time converged only when every resource is.
func TestSettledCountsAndTimes(t *testing.T) {
	r := testReporter(t)
	r.Settled(engine.State{Counts: status.Counts{Resources: 3, Converged: 3}})
	converged := r.status.LastConverged
	if converged.IsZero() || !converged.Equal(r.status.LastSettled) {
		t.Fatalf("a converged settle: %+v", r.status)
	}
	r.dirty = false
	r.Settled(engine.State{Counts: status.Counts{Resources: 3, Converged: 1, Failed: 1, Blocked: 1, Unhealthy: 1, RolledBack: 1, Contested: 1, Pending: 1},
		FailedIDs: []string{"file#/a"}, ContestedIDs: []string{"file#/b"}, Writers: map[string]string{"file#/b": "pid 1"}})
	s := r.status
	if !s.LastConverged.Equal(converged) || !s.LastSettled.After(converged) && !s.LastSettled.Equal(converged) || !r.dirty {
		t.Fatalf("a settle with failures moved the converged time: %+v", s)
	}
	if s.Converged != 1 || s.Failed != 1 || s.Blocked != 1 || s.Unhealthy != 1 || s.RolledBack != 1 || s.Contested != 1 || s.Pending != 1 ||
		s.FailedResources[0] != "file#/a" || s.ContestedResources[0] != "file#/b" || s.ContestedWriters["file#/b"] != "pid 1" {
		t.Fatalf("counts %+v", s)
	}
}

// TestAppliedKeepsWhenARevisionWasFirstApplied: a revision applied again
// keeps its time, a new one gets now, and a cached one is applied, not
// cached.
func TestAppliedKeepsWhenARevisionWasFirstApplied(t *testing.T) {
	r := testReporter(t)
	r.Applied([]Revision{{Source: "obj://b/a", Revision: "A1", Cached: true}, {Source: "obj://b/b", Revision: "B1"}})
	first := r.status.Applied
	if first[0].Since.IsZero() || first[0].Cached {
		t.Fatalf("applied %+v", first)
	}
	first[0].Since = first[0].Since.Add(-time.Hour)
	r.Applied([]Revision{{Source: "obj://b/a", Revision: "A1"}, {Source: "obj://b/b", Revision: "B2"}})
	got := r.status.Applied
	if !got[0].Since.Equal(first[0].Since) || !got[1].Since.After(first[0].Since) || got[1].Revision != "B2" {
		t.Fatalf("applied again %+v", got)
	}
	r.Applied(nil)
	if len(r.status.Applied) != 0 {
		t.Fatalf("nothing applied: %+v", r.status.Applied)
	}
}

func TestReloadedSaysWhyUntilOneWorks(t *testing.T) {
	r := testReporter(t)
	r.Reloaded(errors.New("manifest.yaml:3: unknown type"))
	if r.status.ReloadError != "manifest.yaml:3: unknown type" {
		t.Fatalf("reload error %q", r.status.ReloadError)
	}
	r.Reloaded(nil)
	if r.status.ReloadError != "" {
		t.Fatalf("after a good reload %q", r.status.ReloadError)
	}
}

// TestSnapshotReadsTheSources: the sources and refusals are read at each
// publication, not kept.
func TestSnapshotReadsTheSources(t *testing.T) {
	n := 0
	r, err := New(Options{Host: "web-1", Sources: func() ([]Revision, []Refusal) {
		n++
		return []Revision{{Source: "obj://b/k", Revision: strings.Repeat("x", n)}}, []Refusal{{Source: "obj://b/k", Reason: "bad"}}
	}})
	if err != nil {
		t.Fatal(err)
	}
	before := time.Now()
	r.snapshot()
	st := r.snapshot()
	if st.Sources[0].Revision != "xx" || st.Refused[0].Reason != "bad" || st.Updated.Before(before) || r.status.Sources != nil {
		t.Fatalf("snapshot %+v, kept %+v", st, r.status.Sources)
	}
}

// TestReportLogsOncePerOutage is the failed flag: the first failure is
// news, the next are not.
func TestReportLogsOncePerOutage(t *testing.T) {
	var logs strings.Builder
	r := testReporter(t)
	r.opts.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	r.report(errors.New("one"))
	r.report(errors.New("two"))
	if n := strings.Count(logs.String(), "reporting to NATS failed"); n != 1 {
		t.Fatalf("logged %d times:\n%s", n, logs.String())
	}
	r.failed = false
	r.report(errors.New("three"))
	if n := strings.Count(logs.String(), "reporting to NATS failed"); n != 2 {
		t.Fatalf("a new outage was not logged:\n%s", logs.String())
	}
}

// TestStaleAfterThreeHeartbeats: a host is stale when silent for more
// than three of its heartbeats, the default when it says none.
func TestStaleAfterThreeHeartbeats(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	cases := []struct {
		hb     time.Duration
		silent time.Duration
		want   bool
	}{
		{10 * time.Second, 30 * time.Second, false},
		{10 * time.Second, 30*time.Second + 1, true},
		{0, 3 * DefaultHeartbeat, false},
		{0, 3*DefaultHeartbeat + 1, true},
		{-time.Second, time.Minute, false},
		{time.Hour, -time.Minute, false},
	}
	for _, c := range cases {
		if got := (Status{Heartbeat: c.hb, Updated: now.Add(-c.silent)}).Stale(now); got != c.want {
			t.Errorf("heartbeat %v, silent %v: stale %t", c.hb, c.silent, got)
		}
	}
}

func TestLimitsDefaults(t *testing.T) {
	l := Limits{}.withDefaults()
	week := 7 * 24 * time.Hour
	s, b := l.stream(), l.bucket()
	if s.Name != Stream || s.Subjects[0] != "ccm.events.>" || s.MaxAge != week || s.MaxMsgsPerSubject != 100_000 || b.Bucket != Bucket || b.TTL != week {
		t.Fatalf("stream %+v, bucket %+v", s, b)
	}
	l = Limits{EventsAge: time.Hour, EventsPerHost: 5, HostExpiry: time.Minute}.withDefaults()
	if l.stream().MaxAge != time.Hour || l.stream().MaxMsgsPerSubject != 5 || l.bucket().TTL != time.Minute {
		t.Fatalf("set limits were replaced: %+v", l)
	}
}
