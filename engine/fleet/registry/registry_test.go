package registry_test

import (
	"errors"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/reactive-ccm/ccm/engine/enginetest"
	"github.com/reactive-ccm/ccm/engine/fleet/natsconn"
	"github.com/reactive-ccm/ccm/engine/fleet/natsconn/natstest"
	"github.com/reactive-ccm/ccm/engine/fleet/registry"
	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/registration"
	"github.com/reactive-ccm/ccm/watchers/clock"
)

// env is a NATS server with an initialised registration stream.
type env struct {
	t   *testing.T
	srv *natstest.Server
	js  jetstream.JetStream
}

func newEnv(t *testing.T) *env {
	t.Helper()
	srv := startServer(t)
	e := &env{t: t, srv: srv, js: srv.JetStream()}
	if _, err := e.registry(registry.Options{}).Init(t.Context(), registry.StreamSettings{Replicas: 1, MaxAge: time.Minute}); err != nil {
		t.Fatal(err)
	}
	return e
}

// registry returns a registry on the server; its work ends with the test.
func (e *env) registry(o registry.Options) *registry.Registry {
	lazy := natsconn.NewLazy(natsconn.Settings{}, nil)
	e.t.Cleanup(lazy.Close)
	o.NATS = lazy
	return registry.New(e.t.Context(), o)
}

// last returns the message on subject, or nil when there is none.
func (e *env) last(subject string) *jetstream.RawStreamMsg {
	e.t.Helper()
	s, err := e.js.Stream(e.t.Context(), registry.DefaultStream)
	if err != nil {
		e.t.Fatal(err)
	}
	m, err := s.GetLastMsgForSubject(e.t.Context(), subject)
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return nil
	}
	if err != nil {
		e.t.Fatal(err)
	}
	return m
}

func web(addr string, ttl *registration.TTL) registration.Entry {
	return registration.Entry{Cluster: "prod", Service: "web", Protocol: "http", Address: addr, Port: int64(8080), Priority: 10, TTL: ttl}
}

// next waits for the next event, failing after 10s.
func next(t *testing.T, events <-chan registry.Event) registry.Event {
	t.Helper()
	select {
	case ev := <-events:
		return ev
	case <-time.After(10 * time.Second):
		t.Fatal("no event within 10s")
	}
	return registry.Event{}
}

func TestInitCreatesUpstreamsStream(t *testing.T) {
	e := newEnv(t)
	s, err := e.js.Stream(t.Context(), registry.DefaultStream)
	if err != nil {
		t.Fatal(err)
	}
	c := s.CachedInfo().Config
	if c.Subjects[0] != "choria.ccm.registration.v1.>" || c.MaxMsgsPerSubject != 1 || !c.AllowMsgTTL || !c.AllowRollup ||
		c.MaxAge != time.Minute || c.SubjectDeleteMarkerTTL != time.Minute || !c.DenyDelete || c.DenyPurge {
		t.Fatalf("stream config %+v", c)
	}
	if _, err := e.registry(registry.Options{}).Init(t.Context(), registry.StreamSettings{Replicas: 6}); err == nil {
		t.Fatal("6 replicas accepted")
	}
}

// TestAnnouncedEntriesComeAndGo: a stable resource's entry is published
// as upstream publishes it; once it is not stable a Remove marker rolls
// it up, so a watcher sees it go and a lookup no longer finds it.
func TestAnnouncedEntriesComeAndGo(t *testing.T) {
	e := newEnv(t)
	pub := e.registry(registry.Options{Publish: registry.JetStream})
	go pub.Run(t.Context())
	reader := e.registry(registry.Options{})
	events, err := reader.Events(t.Context(), registration.Filter{Cluster: "prod", Service: "web"})
	if err != nil {
		t.Fatal(err)
	}
	entry := web("10.0.0.1", registration.NewTTL(10*time.Minute))

	pub.Announce("service#web", []registration.Entry{entry}, true)
	ev := next(t, events)
	if ev.Action != registry.Register || ev.Entry.Address != "10.0.0.1" || ev.Entry.Port != int64(8080) {
		t.Fatalf("event %+v", ev)
	}
	m := e.last(entry.Subject())
	want, _ := entry.Payload()
	if string(m.Data) != string(want) || m.Header.Get("Nats-TTL") != "10m0s" || m.Header.Get("Nats-Rollup") != "sub" || m.Header.Get("Nats-Expected-Stream") != "REGISTRATION" {
		t.Fatalf("message %s %v", m.Data, m.Header)
	}
	found, err := reader.Lookup(registration.Filter{Cluster: "prod", Protocol: "http", Service: "web", Address: "*"})
	if err != nil || len(found) != 1 {
		t.Fatalf("lookup: %v, %v", found, err)
	}

	pub.Announce("service#web", []registration.Entry{entry}, false)
	ev = next(t, events)
	if ev.Action != registry.Remove || ev.Reason != registry.ReasonRemove || ev.Entry.Address != "10.0.0.1" {
		t.Fatalf("event %+v", ev)
	}
	enginetest.Eventually(t, "the removed entry gone from lookups", func() bool {
		found, err := reader.Lookup(registration.All)
		return err == nil && len(found) == 0
	})
}

// TestChangedEntriesReplaceTheOldOnes: an owner whose entries change has
// the ones it no longer names withdrawn.
func TestChangedEntriesReplaceTheOldOnes(t *testing.T) {
	e := newEnv(t)
	pub := e.registry(registry.Options{Publish: registry.JetStream})
	a, b := web("10.0.0.1", nil), web("10.0.0.2", nil)
	pub.Announce("service#web", []registration.Entry{a}, true)
	if err := pub.Sync(t.Context()); err != nil {
		t.Fatal(err)
	}
	pub.Announce("service#web", []registration.Entry{b}, true)
	if err := pub.Sync(t.Context()); err != nil {
		t.Fatal(err)
	}
	if m := e.last(a.Subject()); m == nil || m.Header.Get("Nats-Marker-Reason") != "Remove" {
		t.Fatalf("the old entry was not withdrawn: %+v", m)
	}
	if m := e.last(b.Subject()); m == nil || len(m.Data) == 0 {
		t.Fatal("the new entry was not published")
	}
}

// TestUnstableAtStartWithdrawsLeftovers: a resource first found failing
// withdraws its entries even though this process never published them:
// an earlier process may have.
func TestUnstableAtStartWithdrawsLeftovers(t *testing.T) {
	e := newEnv(t)
	entry := web("10.0.0.3", nil)
	if err := e.registry(registry.Options{}).Publish(t.Context(), &entry, registry.JetStream); err != nil {
		t.Fatal(err)
	}
	pub := e.registry(registry.Options{Publish: registry.JetStream})
	pub.Announce("service#web", []registration.Entry{entry}, false)
	if err := pub.Sync(t.Context()); err != nil {
		t.Fatal(err)
	}
	if m := e.last(entry.Subject()); m == nil || m.Header.Get("Nats-Marker-Reason") != "Remove" {
		t.Fatalf("the leftover entry stands: %+v", m)
	}
}

// TestStableEntriesAreRefreshedBeforeTheyExpire: while stable, an entry
// is published again at half its TTL, and one without a TTL at half the
// stream's max age; a never-expiring one is not.
func TestStableEntriesAreRefreshedBeforeTheyExpire(t *testing.T) {
	e := newEnv(t)
	clk := clock.NewFake(time.Now())
	pub := e.registry(registry.Options{Publish: registry.JetStream, Clock: clk})
	go pub.Run(t.Context())
	short, plain, never := web("10.0.0.1", registration.NewTTL(10*time.Second)), web("10.0.0.2", nil), web("10.0.0.3", &registration.TTL{})
	never.TTL, _ = registration.ParseTTL("never")
	pub.Announce("service#web", []registration.Entry{short, plain, never}, true)
	seq := func(en registration.Entry) uint64 {
		if m := e.last(en.Subject()); m != nil {
			return m.Sequence
		}
		return 0
	}
	enginetest.Eventually(t, "the three entries published", func() bool { return seq(short) > 0 && seq(plain) > 0 && seq(never) > 0 })
	s0, p0, n0 := seq(short), seq(plain), seq(never)
	advance(t, clk, 5*time.Second)
	enginetest.Eventually(t, "the 10s entry published again at half its TTL", func() bool { return seq(short) > s0 })
	if seq(plain) != p0 {
		t.Fatal("the entry without a TTL was published again before half the max age")
	}
	advance(t, clk, 25*time.Second)
	enginetest.Eventually(t, "the entry without a TTL published again at half the max age", func() bool { return seq(plain) > p0 })
	if seq(never) != n0 {
		t.Fatal("a never-expiring entry was published again")
	}
}

// advance moves the fake clock once the publisher waits on it.
func advance(t *testing.T, clk *clock.Fake, d time.Duration) {
	t.Helper()
	if err := clk.WaitNext(t.Context(), func(time.Time) bool { return true }); err != nil {
		t.Fatal(err)
	}
	clk.Advance(d)
}

// TestWatchWakesTheResourcesAChangeConcerns.
func TestWatchWakesTheResourcesAChangeConcerns(t *testing.T) {
	e := newEnv(t)
	reader := e.registry(registry.Options{})
	var webs, dbs resources.Lookups
	webs.Add("web", registration.Filter{Service: "web"}.Matches)
	dbs.Add("db", registration.Filter{Service: "db"}.Matches)
	woke := map[string]chan struct{}{"web": make(chan struct{}, 10), "db": make(chan struct{}, 10)}
	defer reader.Watch(&webs, func() { woke["web"] <- struct{}{} })()
	defer reader.Watch(&dbs, func() { woke["db"] <- struct{}{} })()
	if _, err := reader.Lookup(registration.All); err != nil {
		t.Fatal(err)
	}
	entry := web("10.0.0.9", nil)
	if err := reader.Publish(t.Context(), &entry, registry.JetStream); err != nil {
		t.Fatal(err)
	}
	select {
	case <-woke["web"]:
	case <-time.After(10 * time.Second):
		t.Fatal("the web resource was not woken")
	}
	if err := reader.Remove(t.Context(), &entry); err != nil {
		t.Fatal(err)
	}
	select {
	case <-woke["web"]:
	case <-time.After(10 * time.Second):
		t.Fatal("the web resource was not woken by the removal")
	}
	if len(woke["db"]) != 0 {
		t.Fatal("a change of web woke the db resource")
	}
}

func TestLookupWithoutTheStreamFails(t *testing.T) {
	startServer(t)
	lazy := natsconn.NewLazy(natsconn.Settings{}, nil)
	defer lazy.Close()
	r := registry.New(t.Context(), registry.Options{NATS: lazy, LookupWait: 200 * time.Millisecond})
	if _, err := r.Lookup(registration.All); !errors.Is(err, registry.ErrUnavailable) {
		t.Fatalf("lookup without a stream: %v", err)
	}
}

// startServer runs a NATS server the registries of the test connect to,
// through $NATS_URL as the nats CLI would.
func startServer(t *testing.T) *natstest.Server {
	srv := natstest.Start(t, natstest.Options{})
	srv.Env()
	return srv
}

// TestWatchTellsOfAChangeBeforeIt: an entry that came between a lookup
// made while a manifest loaded and the watch on it is not lost.
func TestWatchTellsOfAChangeBeforeIt(t *testing.T) {
	e := newEnv(t)
	reader := e.registry(registry.Options{})
	f := registration.Filter{Service: "web"}
	var l resources.Lookups
	l.Add(f.Subject(), f.Matches)
	es, err := reader.Lookup(f)
	if err != nil || len(es) != 0 {
		t.Fatalf("lookup: %v %v", es, err)
	}
	l.Found(f.Subject(), es.Digest())
	l.Seal()
	entry := web("10.0.0.9", nil)
	if err := reader.Publish(t.Context(), &entry, registry.JetStream); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if es, _ := reader.Lookup(f); len(es) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the entry never reached the reader")
		}
	}
	woke := make(chan struct{}, 1)
	defer reader.Watch(&l, func() { woke <- struct{}{} })()
	select {
	case <-woke:
	case <-time.After(10 * time.Second):
		t.Fatal("the watch did not tell of the entry that came before it")
	}
}

// TestLookupOrderIsTotal: entries on one address and port come in one
// order, so that what a lookup found has one digest.
func TestLookupOrderIsTotal(t *testing.T) {
	e := newEnv(t)
	reader := e.registry(registry.Options{})
	for _, service := range []string{"web", "api", "db", "cache"} {
		entry := web("10.0.0.9", nil)
		entry.Service = service
		if err := reader.Publish(t.Context(), &entry, registry.JetStream); err != nil {
			t.Fatal(err)
		}
	}
	var first string
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		es, _ := reader.Lookup(registration.All)
		if len(es) == 4 {
			first = es.Digest()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the entries never reached the reader")
		}
	}
	for range 20 {
		if es, _ := reader.Lookup(registration.All); es.Digest() != first {
			t.Fatalf("the same entries came in another order: %v", es)
		}
	}
}
