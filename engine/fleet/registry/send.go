package registry

import (
	"context"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/reactive-ccm/ccm/resources/registration"
)

// markerTTL is how long a withdrawal's marker stays in the stream, when
// the stream takes TTLs: the subject is empty either way once it goes.
const markerTTL = time.Minute

// ReasonRemove is the marker reason of a withdrawn entry, as the server
// names a deleted message's (ADR-43); upstream's readers skip it.
const ReasonRemove = "Remove"

// entryMsg is the message announcing e, as upstream builds it: headers
// only on JetStream.
func (r *Registry) entryMsg(e *registration.Entry, payload []byte, dest Destination) *nats.Msg {
	m := nats.NewMsg(e.Subject())
	m.Data = payload
	if dest == JetStream {
		if e.TTL != nil {
			m.Header.Set(jetstream.MsgTTLHeader, e.TTL.String())
		}
		m.Header.Set(jetstream.MsgRollup, jetstream.MsgRollupSubject)
		m.Header.Set(jetstream.ExpectedStreamHeader, r.opts.Stream)
	}
	return m
}

// markerMsg is the message withdrawing the entry on subject: an empty
// Remove marker that rolls the subject up.
func (r *Registry) markerMsg(subject string, dest Destination, l limits) *nats.Msg {
	m := nats.NewMsg(subject)
	m.Header.Set(jetstream.MarkerReasonHeader, ReasonRemove)
	if dest == JetStream {
		m.Header.Set(jetstream.MsgRollup, jetstream.MsgRollupSubject)
		m.Header.Set(jetstream.ExpectedStreamHeader, r.opts.Stream)
		if l.ttls {
			m.Header.Set(jetstream.MsgTTLHeader, markerTTL.String())
		}
	}
	return m
}

// send publishes m to dest; on JetStream it waits for the stream's
// acknowledgement.
func (r *Registry) send(ctx context.Context, m *nats.Msg, dest Destination) error {
	c, err := r.conn(ctx)
	if err != nil {
		return err
	}
	if dest == NATS {
		return c.NATS().PublishMsg(m)
	}
	if _, err := c.JetStream().PublishMsg(ctx, m); err != nil {
		return fmt.Errorf("publishing to stream %s (create it with ccm registration init): %w", r.opts.Stream, err)
	}
	return nil
}

// Publish announces e once, as `ccm registration create` does.
func (r *Registry) Publish(ctx context.Context, e *registration.Entry, dest Destination) error {
	payload, err := e.Payload()
	if err != nil {
		return err
	}
	return r.send(ctx, r.entryMsg(e, payload, dest), dest)
}

// Remove withdraws e, as `ccm registration rm` does: watchers see it go.
func (r *Registry) Remove(ctx context.Context, e *registration.Entry) error {
	return r.send(ctx, r.markerMsg(e.Subject(), JetStream, r.limitsOf(ctx)), JetStream)
}
