package registry

import (
	"context"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/reactive-ccm/ccm/resources/registration"
)

// Action says whether an entry came (or changed) or went.
type Action int

const (
	// Register is a new or updated entry.
	Register Action = iota
	// Remove is an entry that expired, was withdrawn or purged.
	Remove
)

func (a Action) String() string {
	if a == Remove {
		return "remove"
	}
	return "register"
}

// Event is one change of the registry, as upstream's watch reports it.
type Event struct {
	Action  Action
	Subject string
	// Entry is the entry registered; for Remove, what its subject says
	// (cluster, protocol, service and address).
	Entry *registration.Entry
	// Reason is why an entry went: the marker's reason (MaxAge, Remove,
	// Purge).
	Reason string
	// payload is the message body of a Register.
	payload []byte
	// pending is how many messages the reader had still to read.
	pending uint64
}

// consume reads the entries f selects, each subject's current state
// first, then every change, calling handle for each until stop is
// called. initial is how many messages there were to catch up on.
func (r *Registry) consume(ctx context.Context, f registration.Filter, handle func(Event)) (initial uint64, stop func(), err error) {
	c, err := r.conn(ctx)
	if err != nil {
		return 0, nil, err
	}
	cons, err := c.JetStream().OrderedConsumer(ctx, r.opts.Stream, jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{f.Subject()},
		DeliverPolicy:  jetstream.DeliverLastPerSubjectPolicy,
	})
	if err != nil {
		return 0, nil, fmt.Errorf("reading stream %s: %w", r.opts.Stream, err)
	}
	if info := cons.CachedInfo(); info != nil {
		initial = info.NumPending
	}
	cc, err := cons.Consume(func(m jetstream.Msg) {
		if ev, ok := eventOf(m); ok {
			handle(ev)
		}
	})
	if err != nil {
		return 0, nil, fmt.Errorf("reading stream %s: %w", r.opts.Stream, err)
	}
	return initial, cc.Stop, nil
}

// eventOf reads a message: a marker is a removal, anything else an
// entry. A body that is not an entry is not reported.
func eventOf(m jetstream.Msg) (Event, bool) {
	var pending uint64
	if md, err := m.Metadata(); err == nil {
		pending = md.NumPending
	}
	ev := Event{Subject: m.Subject(), pending: pending}
	if reason := m.Headers().Get(jetstream.MarkerReasonHeader); reason != "" || len(m.Data()) == 0 {
		e, ok := registration.FromSubject(m.Subject())
		ev.Action, ev.Entry, ev.Reason = Remove, e, reason
		return ev, ok
	}
	e, err := registration.Decode(m.Data())
	if err != nil {
		return Event{}, false
	}
	ev.Entry, ev.payload = e, m.Data()
	return ev, true
}

// Events streams the changes of the entries f selects until ctx ends,
// starting with each one's current state, as `ccm registration watch`
// shows them. The channel is closed when ctx ends.
func (r *Registry) Events(ctx context.Context, f registration.Filter) (<-chan Event, error) {
	out := make(chan Event, 64)
	_, stop, err := r.consume(ctx, f, func(ev Event) {
		select {
		case out <- ev:
		case <-ctx.Done():
		}
	})
	if err != nil {
		return nil, err
	}
	go func() {
		<-ctx.Done()
		stop()
		close(out)
	}()
	return out, nil
}
