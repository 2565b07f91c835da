package source

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/reactive-ccm/ccm/engine/natsconn"
)

// Push publishes a bundle, with its signature when sig is not empty, to
// the object store at loc, creating the bucket when it is missing.
// Watching hosts fetch it at once.
func Push(ctx context.Context, c *natsconn.Conn, loc Location, tgz, sig []byte) (*jetstream.ObjectInfo, error) {
	if loc.Scheme != Object {
		return nil, fmt.Errorf("%w: %s: bundles are pushed to obj://BUCKET/KEY", ErrLocation, loc)
	}
	if err := c.Wait(ctx); err != nil {
		return nil, err
	}
	js := c.JetStream()
	obs, err := js.ObjectStore(ctx, loc.Bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		obs, err = js.CreateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: loc.Bucket, Description: "ccm manifest bundles"})
	}
	if err != nil {
		return nil, fmt.Errorf("source: object store %s: %w", loc.Bucket, err)
	}
	meta := jetstream.ObjectMeta{Name: loc.Key}
	if len(sig) > 0 {
		meta.Metadata = map[string]string{SignatureMeta: string(bytes.TrimSpace(sig))}
	}
	info, err := obs.Put(ctx, meta, bytes.NewReader(tgz))
	if err != nil {
		return nil, fmt.Errorf("source: putting %s: %w", loc, err)
	}
	return info, nil
}

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
