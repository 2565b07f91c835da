package report_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/status"
	"github.com/reactive-ccm/ccm/engine/enginetest"
	"github.com/reactive-ccm/ccm/engine/fleet/natsconn"
	"github.com/reactive-ccm/ccm/engine/fleet/natsconn/natstest"
	"github.com/reactive-ccm/ccm/engine/fleet/report"
)

func lazy(t *testing.T, srv *natstest.Server) *natsconn.Lazy {
	t.Helper()
	srv.Env()
	l := natsconn.NewLazy(natsconn.FromEnv(""), slog.New(slog.DiscardHandler))
	t.Cleanup(l.Close)
	return l
}

func conn(t *testing.T, l *natsconn.Lazy) *natsconn.Conn {
	t.Helper()
	c, err := l.Get()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// events reads every event of host from the stream.
func events(t *testing.T, c *natsconn.Conn, host string) []map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	s, err := c.JetStream().Stream(ctx, report.Stream)
	if err != nil {
		return nil
	}
	cons, err := s.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{FilterSubjects: []string{report.SubjectPrefix + host}})
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Info(ctx, jetstream.WithSubjectFilter(report.SubjectPrefix+host))
	if err != nil {
		t.Fatal(err)
	}
	n := int(info.State.Subjects[report.SubjectPrefix+host])
	var out []map[string]any
	if n == 0 {
		return nil
	}
	batch, err := cons.Fetch(n, jetstream.FetchMaxWait(2*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	for m := range batch.Messages() {
		var ev map[string]any
		if err := json.Unmarshal(m.Data(), &ev); err != nil {
			t.Fatal(err)
		}
		out = append(out, ev)
	}
	return out
}

func hostStatus(t *testing.T, c *natsconn.Conn, host string) (report.Status, bool) {
	t.Helper()
	all, err := report.Statuses(t.Context(), c)
	if err != nil {
		return report.Status{}, false
	}
	for _, st := range all {
		if st.Host == host {
			return st, true
		}
	}
	return report.Status{}, false
}

// newReporter is report.New, failing the test on an error.
func newReporter(t *testing.T, o report.Options) *report.Reporter {
	t.Helper()
	r, err := report.New(o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestReporterPublishesEventsAndStatus(t *testing.T) {
	srv := natstest.Start(t, natstest.Options{})
	l := lazy(t, srv)
	c := conn(t, l)
	if _, err := report.Statuses(t.Context(), c); !errors.Is(err, report.ErrNoFleet) {
		t.Fatalf("an empty server: %v", err)
	}
	r := newReporter(t, report.Options{Host: "web.example.com", NATS: l, Heartbeat: time.Hour,
		Sources: func() ([]report.Revision, []report.Refusal) {
			return []report.Revision{{Source: "obj://ccm/web.tgz", Revision: "SHA-256=abc"}}, nil
		}})
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { r.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })

	r.Event(&engine.Event{Protocol: engine.EventProtocol, Type: "file", Name: "/etc/motd", Changed: true, Trigger: engine.TriggerDrift})
	r.Settled(engine.State{Counts: status.Counts{Resources: 3, Converged: 1, Failed: 1, Contested: 1}, FailedIDs: []string{"exec#x"}, ContestedIDs: []string{"file#/etc/motd"},
		Writers: map[string]string{"file#/etc/motd": "pid 42 (sed -i s/a/b/ /etc/motd) uid 0"}})
	r.Reloaded(errors.New("manifest.yaml:3:5: unknown property colour"))

	enginetest.Eventually(t, "the event in the stream", func() bool { return len(events(t, c, "web.example.com")) == 1 })
	ev := events(t, c, "web.example.com")[0]
	if ev["host"] != "web.example.com" || ev["name"] != "/etc/motd" || ev["trigger"] != "drift" || ev["changed"] != true {
		t.Fatalf("event = %v", ev)
	}
	enginetest.Eventually(t, "the status in the bucket", func() bool {
		st, ok := hostStatus(t, c, "web.example.com")
		return ok && st.ReloadError != ""
	})
	st, _ := hostStatus(t, c, "web.example.com")
	if st.Resources != 3 || st.Failed != 1 || st.FailedResources[0] != "exec#x" || st.ContestedResources[0] != "file#/etc/motd" ||
		st.ContestedWriters["file#/etc/motd"] != "pid 42 (sed -i s/a/b/ /etc/motd) uid 0" ||
		len(st.Sources) != 1 || st.Sources[0].Revision != "SHA-256=abc" || st.LastSettled.IsZero() || !st.LastConverged.IsZero() {
		t.Fatalf("status = %+v", st)
	}
	if st.Stale(time.Now()) || !st.Stale(time.Now().Add(4*time.Hour)) {
		t.Fatal("staleness is not three missed heartbeats")
	}
}

func TestReporterKeepsEventsWhileNATSIsAway(t *testing.T) {
	srv := natstest.Start(t, natstest.Options{})
	l := lazy(t, srv)
	c := conn(t, l)
	r := newReporter(t, report.Options{Host: "db1", NATS: l, Heartbeat: time.Hour})
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { r.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	r.Event(&engine.Event{Type: "file", Name: "/a"})
	enginetest.Eventually(t, "the first event", func() bool { return len(events(t, c, "db1")) == 1 })

	srv.Stop()
	enginetest.Eventually(t, "the client to notice", func() bool { return !c.Connected() })
	r.Event(&engine.Event{Type: "file", Name: "/b"})
	r.Event(&engine.Event{Type: "file", Name: "/c"})
	srv.Restart()
	enginetest.Eventually(t, "the queued events after the reconnect", func() bool { return len(events(t, c, "db1")) == 3 })
	got := events(t, c, "db1")
	if got[1]["name"] != "/b" || got[2]["name"] != "/c" {
		t.Fatalf("events out of order: %v", got)
	}
}

func TestHostNames(t *testing.T) {
	for _, ok := range []string{"web-1", "web.1", "web_1", "web1.example.com"} {
		if err := report.CheckHost(ok); err != nil {
			t.Errorf("CheckHost(%q) = %v", ok, err)
		}
	}
	for _, bad := range []string{"", "a b", "web*", "web>", ".web", "web.", "a..b", "tab\there", "\x1b[31mred", strings.Repeat("a", 256)} {
		if err := report.CheckHost(bad); !errors.Is(err, report.ErrHostName) {
			t.Errorf("CheckHost(%q) = %v, want ErrHostName", bad, err)
		}
	}
}

// A noop run's events go to the stream; the host's status stays what the
// real runs made it.
func TestEventsOnlyLeavesTheStatusAlone(t *testing.T) {
	srv := natstest.Start(t, natstest.Options{})
	l := lazy(t, srv)
	c := conn(t, l)
	real := newReporter(t, report.Options{Host: "web1", NATS: l, Heartbeat: time.Hour})
	real.Settled(engine.State{Counts: status.Counts{Resources: 2, Converged: 2}})
	if err := real.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	noop := newReporter(t, report.Options{Host: "web1", NATS: l, Heartbeat: time.Hour, EventsOnly: true})
	noop.Event(&engine.Event{Protocol: engine.EventProtocol, Type: "file", Name: "/etc/motd", Changed: true, Noop: true})
	noop.Settled(engine.State{Counts: status.Counts{Resources: 2, Converged: 1, Failed: 1}, FailedIDs: []string{"exec#x"}})
	if err := noop.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	if evs := events(t, c, "web1"); len(evs) != 1 || evs[0]["noop"] != true {
		t.Fatalf("events = %v, want the noop run's one event", evs)
	}
	if st, ok := hostStatus(t, c, "web1"); !ok || st.Failed != 0 || st.Converged != 2 {
		t.Fatalf("status = %+v (found %v), want the real run's", st, ok)
	}
}

func TestTwoProcessesUnderOneHostNameAreReported(t *testing.T) {
	srv := natstest.Start(t, natstest.Options{})
	l := lazy(t, srv)
	c := conn(t, l)
	flush := func(r *report.Reporter) {
		t.Helper()
		r.Settled(engine.State{Counts: status.Counts{Resources: 1, Converged: 1}})
		if err := r.Flush(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	old := newReporter(t, report.Options{Host: "web1", NATS: l, Heartbeat: time.Hour})
	flush(old)
	// A restart: the old process stopped, the new one takes the key over.
	restarted := newReporter(t, report.Options{Host: "web1", NATS: l, Heartbeat: time.Hour})
	flush(restarted)
	flush(restarted)
	if st, _ := hostStatus(t, c, "web1"); st.Duplicate != "" {
		t.Fatalf("a restart was reported as a duplicate: %q", st.Duplicate)
	}
	// Another host with the same name writes in between.
	twin := newReporter(t, report.Options{Host: "web1", NATS: l, Heartbeat: time.Hour})
	flush(twin)
	flush(restarted)
	st, _ := hostStatus(t, c, "web1")
	if st.Duplicate == "" || st.Duplicate == st.Instance {
		t.Fatalf("duplicate = %q (instance %q)", st.Duplicate, st.Instance)
	}
}
