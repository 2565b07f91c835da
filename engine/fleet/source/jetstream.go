package source

import (
	"context"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/reactive-ccm/ccm/engine/fleet/natsconn"
)

// openBucket waits for NATS and opens the bucket loc names with open (a
// key-value bucket or an object store, which kind names); the context it
// returns ends when the connection drops. A bucket that does not exist
// wraps ErrGone.
func openBucket[B any](ctx context.Context, conn func() (*natsconn.Conn, error), loc Location, kind string,
	open func(jetstream.JetStream, context.Context, string) (B, error)) (context.Context, context.CancelFunc, B, error) {
	var none B
	c, err := conn()
	if err != nil {
		return nil, nil, none, err
	}
	uctx, cancel, err := c.Up(ctx)
	if err != nil {
		return nil, nil, none, err
	}
	b, err := open(c.JetStream(), uctx, loc.Bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		err = fmt.Errorf("%w: no %s %s", ErrGone, kind, loc.Bucket)
	}
	if err != nil {
		cancel()
		return nil, nil, none, err
	}
	return uctx, cancel, b, nil
}

// follow hands each update of a JetStream watcher (what it watches names
// it) to each, until ctx ends, when the connection dropped
// (ErrNotConnected) or the caller stopped, or the watcher stops.
func follow[U any](ctx context.Context, updates <-chan U, what string, each func(U)) error {
	for {
		select {
		case <-ctx.Done():
			return context.Cause(ctx)
		case u, ok := <-updates:
			if !ok {
				return fmt.Errorf("the %s watcher stopped", what)
			}
			each(u)
		}
	}
}
