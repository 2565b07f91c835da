package registry_test

import (
	"testing"

	"github.com/nats-io/nats.go"
	"github.com/reactive-ccm/ccm/engine/fleet/natsconn"
	"github.com/reactive-ccm/ccm/engine/fleet/registry"
	"github.com/reactive-ccm/ccm/resources/registration"
)

// TestEventsReadWhatOthersWrote: what the stream may hold besides this
// process's entries: a body that is not an entry is skipped, an empty
// one is a removal without a reason, and an entry published on core NATS
// (upstream's nats destination) is read like any other.
func TestEventsReadWhatOthersWrote(t *testing.T) {
	e := newEnv(t)
	reader := e.registry(registry.Options{})
	events, err := reader.Events(t.Context(), registration.Filter{Service: "web"})
	if err != nil {
		t.Fatal(err)
	}
	a, b := web("10.0.0.1", nil), web("10.0.0.2", nil)
	publishRaw := func(subject string, data []byte) {
		t.Helper()
		if _, err := e.js.PublishMsg(t.Context(), &nats.Msg{Subject: subject, Data: data}); err != nil {
			t.Fatal(err)
		}
	}
	publishRaw(a.Subject(), []byte("not an entry"))
	publishRaw(b.Subject(), nil)
	if err := reader.Publish(t.Context(), &a, registry.NATS); err != nil {
		t.Fatal(err)
	}
	ev := next(t, events)
	if ev.Action != registry.Remove || ev.Reason != "" || ev.Entry.Address != "10.0.0.2" || ev.Entry.Service != "web" {
		t.Fatalf("an empty message: %+v", ev)
	}
	ev = next(t, events)
	if ev.Action != registry.Register || ev.Entry.Address != "10.0.0.1" || ev.Entry.Port != int64(8080) {
		t.Fatalf("an entry from core NATS: %+v %+v", ev, ev.Entry)
	}
	if m := e.last(a.Subject()); m == nil || len(m.Header) != 0 {
		t.Fatalf("core NATS carried headers: %+v", m)
	}
	found, err := reader.Lookup(registration.Filter{Service: "web"})
	if err != nil || len(found) != 1 || found[0].Address != "10.0.0.1" {
		t.Fatalf("lookup %v, %v", found, err)
	}
}

// TestCoreNATSNeedsNoStream: the nats destination is fire and forget, as
// upstream's; jetstream waits for the stream, which must exist.
func TestCoreNATSNeedsNoStream(t *testing.T) {
	startServer(t)
	lazy := natsconn.NewLazy(natsconn.Settings{}, nil)
	defer lazy.Close()
	r := registry.New(t.Context(), registry.Options{NATS: lazy})
	a := web("10.0.0.1", nil)
	if err := r.Publish(t.Context(), &a, registry.NATS); err != nil {
		t.Fatalf("core NATS: %v", err)
	}
	if err := r.Publish(t.Context(), &a, registry.JetStream); err == nil {
		t.Fatal("jetstream without the stream: no error")
	}
}
