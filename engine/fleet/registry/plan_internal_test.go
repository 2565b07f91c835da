package registry

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/registration"
)

func entry(addr string, ttl *registration.TTL) registration.Entry {
	return registration.Entry{Cluster: "prod", Service: "web", Protocol: "http", Address: addr, Port: int64(80), TTL: ttl}
}

func payloadOf(t *testing.T, e registration.Entry) []byte {
	t.Helper()
	p, err := e.Payload()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPlan is the table of what the publishing loop does for a subject:
// what its owners say of it against what was last done about it.
func TestPlan(t *testing.T) {
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	a, b := entry("10.0.0.1", nil), entry("10.0.0.2", nil)
	sa, sb := a.Subject(), b.Subject()
	changed := a
	changed.Priority = 5
	live := func(e registration.Entry, due time.Time) *subjectState {
		return &subjectState{live: true, payload: payloadOf(t, e), due: due}
	}
	cases := []struct {
		name     string
		owners   map[string]owner
		subjects map[string]*subjectState
		// want lists "publish S" and "withdraw S", sorted.
		want []string
		next time.Time
		// kept lists the subjects still known after.
		kept []string
	}{
		{name: "a new stable entry is published",
			owners: map[string]owner{"r": ownerOf([]registration.Entry{a}, true)}, want: []string{"publish " + sa}},
		{name: "published and not expiring: nothing to do",
			owners:   map[string]owner{"r": ownerOf([]registration.Entry{a}, true)},
			subjects: map[string]*subjectState{sa: live(a, time.Time{})}, kept: []string{sa}},
		{name: "published, due later: look again then",
			owners:   map[string]owner{"r": ownerOf([]registration.Entry{a}, true)},
			subjects: map[string]*subjectState{sa: live(a, now.Add(time.Minute))}, next: now.Add(time.Minute), kept: []string{sa}},
		{name: "due now: published again",
			owners:   map[string]owner{"r": ownerOf([]registration.Entry{a}, true)},
			subjects: map[string]*subjectState{sa: live(a, now)}, want: []string{"publish " + sa}, kept: []string{sa}},
		{name: "changed: published again",
			owners:   map[string]owner{"r": ownerOf([]registration.Entry{changed}, true)},
			subjects: map[string]*subjectState{sa: live(a, time.Time{})}, want: []string{"publish " + sa}, kept: []string{sa}},
		{name: "stable again after a withdrawal: published",
			owners:   map[string]owner{"r": ownerOf([]registration.Entry{a}, true)},
			subjects: map[string]*subjectState{sa: {}}, want: []string{"publish " + sa}, kept: []string{sa}},
		{name: "unstable and never published: withdrawn (a leftover of an earlier run)",
			owners: map[string]owner{"r": ownerOf([]registration.Entry{a}, false)}, want: []string{"withdraw " + sa}},
		{name: "unstable and live: withdrawn",
			owners:   map[string]owner{"r": ownerOf([]registration.Entry{a}, false)},
			subjects: map[string]*subjectState{sa: live(a, now.Add(time.Minute))}, want: []string{"withdraw " + sa}, kept: []string{sa}},
		{name: "unstable and withdrawn: nothing, still known",
			owners:   map[string]owner{"r": ownerOf([]registration.Entry{a}, false)},
			subjects: map[string]*subjectState{sa: {}}, kept: []string{sa}},
		{name: "left the list while live: withdrawn",
			owners:   map[string]owner{"r": ownerOf([]registration.Entry{b}, true)},
			subjects: map[string]*subjectState{sa: live(a, time.Time{}), sb: live(b, time.Time{})}, want: []string{"withdraw " + sa}, kept: []string{sa, sb}},
		{name: "left the list and withdrawn: forgotten",
			subjects: map[string]*subjectState{sa: {}}},
		{name: "stable with no entries is not stable",
			owners: map[string]owner{"r": ownerOf(nil, true)}},
		{name: "a failed subject waits for its retry",
			owners:   map[string]owner{"r": ownerOf([]registration.Entry{a, b}, true)},
			subjects: map[string]*subjectState{sa: {retry: now.Add(3 * time.Second)}, sb: live(b, now.Add(time.Minute))},
			next:     now.Add(3 * time.Second), kept: []string{sa, sb}},
		{name: "a retry that is due is made",
			owners:   map[string]owner{"r": ownerOf([]registration.Entry{a}, true)},
			subjects: map[string]*subjectState{sa: {retry: now}}, want: []string{"publish " + sa}, kept: []string{sa}},
		{name: "one owner stable, another not, on one subject: published",
			owners: map[string]owner{"r1": ownerOf([]registration.Entry{a}, false), "r2": ownerOf([]registration.Entry{a}, true)},
			want:   []string{"publish " + sa}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := New(t.Context(), Options{})
			if c.owners != nil {
				r.pub.owners = c.owners
			}
			if c.subjects != nil {
				r.pub.subjects = c.subjects
			}
			todo, next := r.plan(now)
			var got []string
			for _, act := range todo {
				if act.entry == nil {
					got = append(got, "withdraw "+act.subject)
					continue
				}
				got = append(got, "publish "+act.subject)
				if want, _ := act.entry.Payload(); !bytes.Equal(act.payload, want) {
					t.Errorf("%s carries payload %s, not its entry's", act.subject, act.payload)
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, c.want) || !next.Equal(c.next) {
				t.Fatalf("plan = %q, next %v; want %q, next %v", got, next, c.want, c.next)
			}
			var kept []string
			for s := range r.pub.subjects {
				kept = append(kept, s)
			}
			slices.Sort(kept)
			if !slices.Equal(kept, c.kept) {
				t.Fatalf("known subjects %q, want %q", kept, c.kept)
			}
		})
	}
}

// TestRefreshEvery: an entry is published again at half its life, its
// TTL else the stream's max age, never when neither ends it.
func TestRefreshEvery(t *testing.T) {
	never, err := registration.ParseTTL("never")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		ttl    *registration.TTL
		maxAge time.Duration
		want   time.Duration
	}{
		{registration.NewTTL(10 * time.Second), time.Minute, 5 * time.Second},
		{nil, time.Minute, 30 * time.Second},
		{nil, 0, 0},
		{never, time.Minute, 0},
	}
	for _, c := range cases {
		e := entry("10.0.0.1", c.ttl)
		if got := refreshEvery(&e, limits{maxAge: c.maxAge}); got != c.want {
			t.Errorf("TTL %v, max age %v: every %v, want %v", c.ttl, c.maxAge, got, c.want)
		}
	}
}

func TestBackoffDoublesTo30s(t *testing.T) {
	want := map[int]time.Duration{1: time.Second, 2: 2 * time.Second, 5: 16 * time.Second, 6: 30 * time.Second, 7: 30 * time.Second, 100: 30 * time.Second}
	for n, d := range want {
		if got := backoff(n); got != d {
			t.Errorf("backoff(%d) = %v, want %v", n, got, d)
		}
	}
}

func TestParseDestination(t *testing.T) {
	for _, s := range []string{"", "nats", "jetstream"} {
		if d, err := ParseDestination(s); err != nil || string(d) != s {
			t.Errorf("%q: %q, %v", s, d, err)
		}
	}
	if _, err := ParseDestination("kafka"); !errors.Is(err, ErrDestination) || err.Error() != `registry: the registration destination is nats or jetstream, not "kafka"` {
		t.Errorf("kafka: %v", err)
	}
}

// TestMessages: the headers of an entry and of a withdrawal, by
// destination, as upstream's readers expect them.
func TestMessages(t *testing.T) {
	r := New(t.Context(), Options{Stream: "REG"})
	ttl := entry("10.0.0.1", registration.NewTTL(time.Minute))
	plain := entry("10.0.0.2", nil)
	cases := []struct {
		name   string
		header map[string]string
		get    func() (subject string, h map[string][]string, data []byte)
		data   bool
	}{
		{"an entry with a TTL on jetstream", map[string]string{jetstream.MsgTTLHeader: "1m0s", jetstream.MsgRollup: jetstream.MsgRollupSubject, jetstream.ExpectedStreamHeader: "REG"},
			func() (string, map[string][]string, []byte) {
				m := r.entryMsg(&ttl, payloadOf(t, ttl), JetStream)
				return m.Subject, m.Header, m.Data
			}, true},
		{"an entry without one on jetstream", map[string]string{jetstream.MsgRollup: jetstream.MsgRollupSubject, jetstream.ExpectedStreamHeader: "REG"},
			func() (string, map[string][]string, []byte) {
				m := r.entryMsg(&plain, payloadOf(t, plain), JetStream)
				return m.Subject, m.Header, m.Data
			}, true},
		{"an entry on core nats", map[string]string{},
			func() (string, map[string][]string, []byte) {
				m := r.entryMsg(&ttl, payloadOf(t, ttl), NATS)
				return m.Subject, m.Header, m.Data
			}, true},
		{"a withdrawal on a stream with TTLs", map[string]string{jetstream.MarkerReasonHeader: ReasonRemove, jetstream.MsgTTLHeader: "1m0s", jetstream.MsgRollup: jetstream.MsgRollupSubject, jetstream.ExpectedStreamHeader: "REG"},
			func() (string, map[string][]string, []byte) {
				m := r.markerMsg(ttl.Subject(), JetStream, limits{ttls: true})
				return m.Subject, m.Header, m.Data
			}, false},
		{"a withdrawal on a stream without", map[string]string{jetstream.MarkerReasonHeader: ReasonRemove, jetstream.MsgRollup: jetstream.MsgRollupSubject, jetstream.ExpectedStreamHeader: "REG"},
			func() (string, map[string][]string, []byte) {
				m := r.markerMsg(ttl.Subject(), JetStream, limits{})
				return m.Subject, m.Header, m.Data
			}, false},
		{"a withdrawal on core nats", map[string]string{jetstream.MarkerReasonHeader: ReasonRemove},
			func() (string, map[string][]string, []byte) {
				m := r.markerMsg(ttl.Subject(), NATS, limits{ttls: true})
				return m.Subject, m.Header, m.Data
			}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			subject, h, data := c.get()
			if subject != ttl.Subject() && subject != plain.Subject() {
				t.Fatalf("subject %s", subject)
			}
			if len(h) != len(c.header) {
				t.Fatalf("headers %v, want %v", h, c.header)
			}
			for k, v := range c.header {
				if got := h[k]; len(got) != 1 || got[0] != v {
					t.Fatalf("header %s = %q, want %q (all: %v)", k, got, v, h)
				}
			}
			if c.data != (len(data) > 0) {
				t.Fatalf("body %q", data)
			}
		})
	}
}

// TestApplyWakesOnlyForNews: the backlog fills the copy silently; after
// it, a change wakes the resources whose queries it concerns, and a
// refresh that changes nothing, or the removal of an unknown entry,
// wakes nobody.
func TestApplyWakesOnlyForNews(t *testing.T) {
	r := New(t.Context(), Options{})
	a, b := entry("10.0.0.1", nil), entry("10.0.0.2", nil)
	db := registration.Entry{Cluster: "prod", Service: "db", Protocol: "tcp", Address: "10.0.0.3", Port: int64(5432)}
	var webs resources.Lookups
	webs.Add("web", registration.Filter{Service: "web"}.Matches)
	woke := 0
	defer r.Watch(&webs, func() { woke++ })()
	register := func(e registration.Entry, pending uint64) Event {
		return Event{Action: Register, Subject: e.Subject(), Entry: &e, payload: payloadOf(t, e), pending: pending}
	}
	remove := func(e registration.Entry) Event {
		return Event{Action: Remove, Subject: e.Subject(), Entry: &e}
	}
	changedA := a
	changedA.Priority = 9
	steps := []struct {
		name string
		ev   Event
		woke int
		have int
	}{
		{"the backlog", register(a, 1), 0, 1},
		{"the backlog's last", register(b, 0), 0, 2},
		{"the same again", register(a, 0), 0, 2},
		{"a change", register(changedA, 0), 1, 2},
		{"another service", register(db, 0), 1, 3},
		{"a removal", remove(b), 2, 2},
		{"the removal again", remove(b), 2, 2},
		{"a removal of another service", remove(db), 2, 1},
	}
	for _, s := range steps {
		r.apply(s.ev)
		if woke != s.woke || len(r.cache.entries) != s.have {
			t.Fatalf("after %s: woken %d times, %d entries; want %d, %d", s.name, woke, len(r.cache.entries), s.woke, s.have)
		}
	}
	if got := r.selected(registration.All.Matches); len(got) != 1 || got[0].Priority != 9 {
		t.Fatalf("selected %v", got)
	}
}

// TestUnavailableSaysWhy: a lookup that cannot be answered names the
// stream, and why or how long it waited.
func TestUnavailableSaysWhy(t *testing.T) {
	r := New(t.Context(), Options{Stream: "REG", LookupWait: 3 * time.Second})
	if err := r.unavailable(); !errors.Is(err, ErrUnavailable) || !strings.HasSuffix(err.Error(), ": REG: not read within 3s") {
		t.Fatalf("err = %v", err)
	}
	if !r.setErr(errors.New("no stream")) || r.setErr(errors.New("still no stream")) {
		t.Fatal("only the first failure of a streak is news")
	}
	if err := r.unavailable(); !strings.HasSuffix(err.Error(), ": REG: still no stream") {
		t.Fatalf("err = %v", err)
	}
	if r.setErr(nil) || !r.setErr(errors.New("again")) {
		t.Fatal("a failure after a recovery is news")
	}
}

// TestWatchEndsWithItsCancel and a lookup once the registry's context
// ended says so at once.
func TestWatchEndsWithItsCancel(t *testing.T) {
	r := New(t.Context(), Options{})
	var webs resources.Lookups
	webs.Add("web", registration.Filter{Service: "web"}.Matches)
	woke := 0
	stop := r.Watch(&webs, func() { woke++ })
	r.cache.syncedOnce.Do(func() { close(r.cache.synced) })
	a := entry("10.0.0.1", nil)
	r.apply(Event{Action: Register, Subject: a.Subject(), Entry: &a, payload: payloadOf(t, a)})
	stop()
	r.apply(Event{Action: Remove, Subject: a.Subject(), Entry: &a})
	if woke != 1 || len(r.cache.subs) != 0 {
		t.Fatalf("woken %d times, %d watches left; want once, none", woke, len(r.cache.subs))
	}
	ctx, cancel := context.WithCancelCause(t.Context())
	cancel(errors.New("shutting down"))
	if _, err := New(ctx, Options{}).Lookup(registration.All); !errors.Is(err, ErrUnavailable) || !strings.HasSuffix(err.Error(), ": shutting down") {
		t.Fatalf("a lookup after the end: %v", err)
	}
}
