package source

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/reactive-ccm/ccm/engine/fleet/natsconn"
)

// keyValue is one key of a JetStream key-value bucket.
type keyValue struct {
	loc  Location
	conn func() (*natsconn.Conn, error)
}

// bucket waits for NATS and opens the bucket; the context it returns ends
// when the connection drops.
func (k *keyValue) bucket(ctx context.Context) (context.Context, context.CancelFunc, jetstream.KeyValue, error) {
	return openBucket(ctx, k.conn, k.loc, "key-value bucket", jetstream.JetStream.KeyValue)
}

func (k *keyValue) get(ctx context.Context, prev string) (blob, error) {
	ctx, cancel, kv, err := k.bucket(ctx)
	if err != nil {
		return blob{}, err
	}
	defer cancel()
	e, err := kv.Get(ctx, k.loc.Key)
	switch {
	case errors.Is(err, jetstream.ErrKeyNotFound):
		return blob{}, fmt.Errorf("%w: no key %s in bucket %s", ErrGone, k.loc.Key, k.loc.Bucket)
	case err != nil:
		return blob{}, err
	}
	id := strconv.FormatUint(e.Revision(), 10)
	if id == prev {
		return blob{}, errUnchanged
	}
	return blob{id: id, data: e.Value()}, nil
}

func (k *keyValue) watch(ctx context.Context, changed func()) error {
	ctx, cancel, kv, err := k.bucket(ctx)
	if err != nil {
		return err
	}
	defer cancel()
	w, err := kv.Watch(ctx, k.loc.Key)
	if err != nil {
		return err
	}
	defer w.Stop()
	// Every update, and the nil that ends the initial values.
	return follow(ctx, w.Updates(), "key-value", func(jetstream.KeyValueEntry) { changed() })
}
