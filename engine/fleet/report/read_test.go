package report_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine/fleet/natsconn/natstest"
	"github.com/reactive-ccm/ccm/engine/fleet/report"
)

// TestStatusesAndForget: hosts are read sorted by name, a key that is
// not a status is skipped, and Forget says why it cannot forget.
func TestStatusesAndForget(t *testing.T) {
	c := conn(t, lazy(t, natstest.Start(t, natstest.Options{})))
	ctx := t.Context()
	if _, err := report.Statuses(ctx, c); !errors.Is(err, report.ErrNoFleet) {
		t.Fatalf("no fleet: %v", err)
	}
	if err := report.Forget(ctx, c, "web-1"); !errors.Is(err, report.ErrNoFleet) {
		t.Fatalf("forgetting in no fleet: %v", err)
	}
	if err := report.Init(ctx, c.JetStream(), report.Limits{}); err != nil {
		t.Fatal(err)
	}
	putStatus(t, c, report.Status{Host: "web-2"})
	putStatus(t, c, report.Status{Host: "db-1"})
	kv, err := c.JetStream().KeyValue(ctx, report.Bucket)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kv.Put(ctx, "garbage", []byte("not json")); err != nil {
		t.Fatal(err)
	}
	all, err := report.Statuses(ctx, c)
	if err != nil || len(all) != 2 || all[0].Host != "db-1" || all[1].Host != "web-2" {
		t.Fatalf("statuses %+v, %v", all, err)
	}
	cases := []struct {
		host string
		want string
	}{
		{"web-9", "fleet: no host web-9 in CCM_STATUS"},
		{"a b", `fleet: bad host name: "a b"`},
		{"web-2", ""},
	}
	for _, cs := range cases {
		err := report.Forget(ctx, c, cs.host)
		if cs.want == "" && err != nil || cs.want != "" && (err == nil || !strings.HasPrefix(err.Error(), cs.want)) {
			t.Errorf("Forget(%s) = %v, want %q", cs.host, err, cs.want)
		}
	}
	if all, _ := report.Statuses(ctx, c); len(all) != 1 || all[0].Host != "db-1" {
		t.Fatalf("after forgetting web-2: %+v", all)
	}
}

// TestInitSetsLimitsOnWhatExists: a host creates the stream and bucket
// with the defaults; an administrator's Init then sets its own limits.
func TestInitSetsLimitsOnWhatExists(t *testing.T) {
	c := conn(t, lazy(t, natstest.Start(t, natstest.Options{})))
	ctx, js := t.Context(), c.JetStream()
	s, err := report.EnsureStream(ctx, js)
	if err != nil {
		t.Fatal(err)
	}
	kv, err := report.EnsureBucket(ctx, js)
	if err != nil {
		t.Fatal(err)
	}
	week := 7 * 24 * time.Hour
	if cfg := s.CachedInfo().Config; cfg.MaxAge != week || cfg.MaxMsgsPerSubject != 100_000 {
		t.Fatalf("stream created with %+v", cfg)
	}
	if st, err := kv.Status(ctx); err != nil || st.TTL() != week {
		t.Fatalf("bucket created with TTL %v, %v", st.TTL(), err)
	}
	if err := report.Init(ctx, js, report.Limits{EventsAge: time.Hour, EventsPerHost: 10, HostExpiry: time.Minute}); err != nil {
		t.Fatal(err)
	}
	s, err = report.EnsureStream(ctx, js)
	if err != nil {
		t.Fatal(err)
	}
	if cfg := s.CachedInfo().Config; cfg.MaxAge != time.Hour || cfg.MaxMsgsPerSubject != 10 {
		t.Fatalf("stream after Init %+v", cfg)
	}
	kv, err = report.EnsureBucket(ctx, js)
	if err != nil {
		t.Fatal(err)
	}
	if st, err := kv.Status(ctx); err != nil || st.TTL() != time.Minute {
		t.Fatalf("bucket after Init: TTL %v, %v", st.TTL(), err)
	}
}
