package registry

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine/enginetest"
	"github.com/reactive-ccm/ccm/engine/fleet/natsconn"
	"github.com/reactive-ccm/ccm/engine/fleet/natsconn/natstest"
	"github.com/reactive-ccm/ccm/resources/registration"
	"github.com/reactive-ccm/ccm/watchers/clock"
)

// onServer is a registry publishing to jetstream on a fresh server, with
// a fake clock and its logs.
func onServer(t *testing.T) (*Registry, *clock.Fake, *enginetest.Logs) {
	t.Helper()
	natstest.Start(t, natstest.Options{}).Env()
	lazy := natsconn.NewLazy(natsconn.Settings{}, nil)
	t.Cleanup(lazy.Close)
	clk := clock.NewFake(time.Unix(1_000_000, 0))
	logs := &enginetest.Logs{}
	r := New(t.Context(), Options{NATS: lazy, Publish: JetStream, Clock: clk, Logger: slog.New(slog.NewTextHandler(logs, nil))})
	return r, clk, logs
}

// TestFailedPublicationsBackOff: without the stream a publication fails
// saying what to do, waits its back-off before it is planned again, is
// logged once per streak, and, once the stream exists, goes out and
// forgets the streak.
func TestFailedPublicationsBackOff(t *testing.T) {
	r, clk, logs := onServer(t)
	e := entry("10.0.0.1", nil)
	r.Announce("service#web", []registration.Entry{e}, true)
	err := r.Sync(t.Context())
	if err == nil || !strings.Contains(err.Error(), "publishing to stream REGISTRATION (create it with ccm registration init)") {
		t.Fatalf("without the stream: %v", err)
	}
	if todo, next := r.due(); len(todo) != 0 || !next.Equal(clk.Now().Add(time.Second)) {
		t.Fatalf("after one failure: %d due, next %v; want the retry in 1s", len(todo), next)
	}
	clk.Advance(time.Second)
	if err := r.Sync(t.Context()); err == nil {
		t.Fatal("the second attempt went out without the stream")
	}
	if _, next := r.due(); !next.Equal(clk.Now().Add(2 * time.Second)) {
		t.Fatalf("after two failures the retry is at %v, want in 2s", next)
	}
	if n := strings.Count(logs.String(), "publishing registrations failed"); n != 1 {
		t.Fatalf("a streak of failures logged %d times", n)
	}
	if _, err := r.Init(t.Context(), StreamSettings{Replicas: 1, MaxAge: time.Minute}); err != nil {
		t.Fatal(err)
	}
	clk.Advance(2 * time.Second)
	if err := r.Sync(t.Context()); err != nil {
		t.Fatal(err)
	}
	st := r.pub.subjects[e.Subject()]
	if r.pub.failures != 0 || r.pub.warned || !st.retry.IsZero() || !st.live || !st.due.Equal(clk.Now().Add(30*time.Second)) {
		t.Fatalf("after the stream came: failures %d, warned %t, state %+v", r.pub.failures, r.pub.warned, st)
	}
	if !strings.Contains(logs.String(), "msg=registered service=web cluster=prod protocol=http address=10.0.0.1 port=80") {
		t.Fatalf("the registration was not logged:\n%s", logs)
	}
	r.Announce("service#web", nil, false)
	if err := r.Sync(t.Context()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(logs.String(), "msg=\"withdrew registration\" service=web cluster=prod protocol=http address=10.0.0.1") {
		t.Fatalf("the withdrawal was not logged:\n%s", logs)
	}
}

// TestLimitsAreReadOncePerConnection: the stream's settings are read
// once and kept; a stream that does not exist yet is assumed to have
// upstream's, and read again next time.
func TestLimitsAreReadOncePerConnection(t *testing.T) {
	r, _, _ := onServer(t)
	ctx := t.Context()
	if l := r.limitsOf(ctx); l != assumed || r.limits.l != nil {
		t.Fatalf("without the stream: %+v, kept %v", l, r.limits.l)
	}
	if _, err := r.Init(ctx, StreamSettings{Replicas: 1, MaxAge: 2 * time.Minute}); err != nil {
		t.Fatal(err)
	}
	want := limits{maxAge: 2 * time.Minute, ttls: true}
	if l := r.limitsOf(ctx); l != want {
		t.Fatalf("read %+v, want %+v", l, want)
	}
	if _, err := r.Init(ctx, StreamSettings{Replicas: 1, MaxAge: 5 * time.Minute}); err != nil {
		t.Fatal(err)
	}
	if l := r.limitsOf(ctx); l != want {
		t.Fatalf("read again %+v before being forgotten", l)
	}
	r.forgetLimits()
	if l := r.limitsOf(ctx); l.maxAge != 5*time.Minute {
		t.Fatalf("after forgetting: %+v", l)
	}
}

func TestAnnounceWithoutADestinationDoesNothing(t *testing.T) {
	r := New(t.Context(), Options{})
	r.Announce("service#web", []registration.Entry{entry("10.0.0.1", nil)}, true)
	if len(r.pub.owners) != 0 || len(r.pub.wake) != 0 {
		t.Fatalf("owners %v", r.pub.owners)
	}
	if err := r.Sync(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Init(t.Context(), StreamSettings{Replicas: 0}); err == nil || err.Error() != "registry: replicas must be between 1 and 5, not 0" {
		t.Fatalf("0 replicas: %v", err)
	}
}
