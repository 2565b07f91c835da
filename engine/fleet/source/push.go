package source

import (
	"context"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/reactive-ccm/ccm/engine/fleet/natsconn"
)

// PutKV sets a key in a key-value bucket, creating the bucket when it is
// missing; tests and the fleet walkthrough use it, operators may use the
// nats CLI as well.
func PutKV(ctx context.Context, c *natsconn.Conn, loc Location, value []byte) (uint64, error) {
	if loc.Scheme != KV {
		return 0, fmt.Errorf("%w: %s: want kv://BUCKET/KEY", ErrLocation, loc)
	}
	if err := c.Wait(ctx); err != nil {
		return 0, err
	}
	js := c.JetStream()
	kv, err := js.KeyValue(ctx, loc.Bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		kv, err = js.CreateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: loc.Bucket})
	}
	if err != nil {
		return 0, fmt.Errorf("source: key-value bucket %s: %w", loc.Bucket, err)
	}
	rev, err := kv.Put(ctx, loc.Key, value)
	if err != nil {
		return 0, fmt.Errorf("source: putting %s: %w", loc, err)
	}
	return rev, nil
}
