package registry

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/reactive-ccm/ccm/engine/fleet/natsconn"
	"github.com/reactive-ccm/ccm/watchers/clock"
)

// DefaultStream is the JetStream stream holding registrations, as
// upstream names it.
const DefaultStream = "REGISTRATION"

// Destination is how registrations are published, as upstream's agent
// setting names it.
type Destination string

const (
	// JetStream publishes to the registration stream, with the rollup and
	// TTL headers, and waits for the stream's acknowledgement.
	JetStream Destination = "jetstream"
	// NATS publishes plain core NATS messages, fire and forget, as
	// upstream's nats destination does.
	NATS Destination = "nats"
)

// ParseDestination checks a destination; "" is none.
func ParseDestination(s string) (Destination, error) {
	switch d := Destination(s); d {
	case "", JetStream, NATS:
		return d, nil
	}
	return "", fmt.Errorf("%w, not %q", ErrDestination, s)
}

// Options configure a Registry.
type Options struct {
	NATS *natsconn.Lazy
	// Stream is the registration stream; default DefaultStream.
	Stream string
	// Publish is where announced entries go; "" publishes nothing.
	Publish Destination
	Logger  *slog.Logger
	// Clock times refreshes and retries; default the system clock.
	Clock clock.Clock
	// LookupWait bounds how long a lookup waits for the stream to be
	// read at first; default 10s.
	LookupWait time.Duration
}

// Registry publishes this host's registrations and reads everyone's. It is
// safe for concurrent use.
type Registry struct {
	opts Options
	// ctx bounds the stream's reader, started by the first lookup.
	ctx context.Context

	pub    publisher
	cache  cache
	limits limitsCache
}

// New returns a registry whose background work ends with ctx.
func New(ctx context.Context, opts Options) *Registry {
	if opts.Stream == "" {
		opts.Stream = DefaultStream
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Clock == nil {
		opts.Clock = clock.Real()
	}
	if opts.LookupWait <= 0 {
		opts.LookupWait = 10 * time.Second
	}
	r := &Registry{opts: opts, ctx: ctx}
	r.pub.init()
	r.cache.init()
	return r
}

// Stream is the registration stream's name.
func (r *Registry) Stream() string { return r.opts.Stream }

// conn waits, within ctx, for the NATS connection to be up.
func (r *Registry) conn(ctx context.Context) (*natsconn.Conn, error) {
	c, err := r.opts.NATS.Get()
	if err != nil {
		return nil, err
	}
	return c, c.Wait(ctx)
}

// limitsCache holds what the stream's configuration says about how long
// entries live, read once per connection.
type limitsCache struct {
	mu sync.Mutex
	l  *limits
}
