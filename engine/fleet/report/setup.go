package report

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Limits are what the fleet's stream and bucket keep.
type Limits struct {
	// EventsAge is how long events are kept; default a week.
	EventsAge time.Duration
	// EventsPerHost bounds the events kept per host; default 100,000.
	EventsPerHost int64
	// HostExpiry drops the status of a host silent for this long; default
	// a week.
	HostExpiry time.Duration
}

func (l Limits) withDefaults() Limits {
	if l.EventsAge <= 0 {
		l.EventsAge = 7 * 24 * time.Hour
	}
	if l.EventsPerHost <= 0 {
		l.EventsPerHost = 100_000
	}
	if l.HostExpiry <= 0 {
		l.HostExpiry = 7 * 24 * time.Hour
	}
	return l
}

func (l Limits) stream() jetstream.StreamConfig {
	return jetstream.StreamConfig{
		Name: Stream, Subjects: []string{SubjectPrefix + ">"}, Description: "ccm events, one subject per host",
		MaxAge: l.EventsAge, MaxMsgsPerSubject: l.EventsPerHost, Discard: jetstream.DiscardOld,
	}
}

func (l Limits) bucket() jetstream.KeyValueConfig {
	return jetstream.KeyValueConfig{Bucket: Bucket, Description: "ccm status, one key per host", TTL: l.HostExpiry}
}

// Init creates the events stream and the status bucket with lim, or sets
// lim on them when they exist: what an administrator runs once, so hosts
// need no permission to create anything.
func Init(ctx context.Context, js jetstream.JetStream, lim Limits) error {
	lim = lim.withDefaults()
	if _, err := js.CreateOrUpdateStream(ctx, lim.stream()); err != nil {
		return fmt.Errorf("fleet: stream %s: %w", Stream, err)
	}
	if _, err := js.CreateOrUpdateKeyValue(ctx, lim.bucket()); err != nil {
		return fmt.Errorf("fleet: bucket %s: %w", Bucket, err)
	}
	return nil
}

// EnsureStream returns the events stream, creating it with the default
// limits when missing.
func EnsureStream(ctx context.Context, js jetstream.JetStream) (jetstream.Stream, error) {
	s, err := js.Stream(ctx, Stream)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		s, err = js.CreateStream(ctx, Limits{}.withDefaults().stream())
	}
	if err != nil {
		return nil, fmt.Errorf("fleet: stream %s: %w", Stream, err)
	}
	return s, nil
}

// EnsureBucket returns the status bucket, creating it with the default
// limits when missing.
func EnsureBucket(ctx context.Context, js jetstream.JetStream) (jetstream.KeyValue, error) {
	kv, err := js.KeyValue(ctx, Bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		kv, err = js.CreateKeyValue(ctx, Limits{}.withDefaults().bucket())
	}
	if err != nil {
		return nil, fmt.Errorf("fleet: bucket %s: %w", Bucket, err)
	}
	return kv, nil
}
