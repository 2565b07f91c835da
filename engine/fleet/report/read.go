package report

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/reactive-ccm/ccm/engine/fleet/natsconn"
)

// ErrNoFleet is returned when no host has reported yet.
var ErrNoFleet = errors.New("fleet: no host has reported (no " + Bucket + " bucket); run hosts with --report nats")

// Statuses reads every host's status, sorted by host name. A key that
// does not decode is skipped.
func Statuses(ctx context.Context, c *natsconn.Conn) ([]Status, error) {
	ctx, cancel, err := c.Up(ctx)
	if err != nil {
		return nil, err
	}
	defer cancel()
	kv, err := c.JetStream().KeyValue(ctx, Bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		return nil, ErrNoFleet
	}
	if err != nil {
		return nil, fmt.Errorf("fleet: %w", err)
	}
	keys, err := kv.ListKeys(ctx)
	if err != nil {
		return nil, fmt.Errorf("fleet: listing %s: %w", Bucket, err)
	}
	var out []Status
	for key := range keys.Keys() {
		e, err := kv.Get(ctx, key)
		if err != nil {
			continue
		}
		var st Status
		if json.Unmarshal(e.Value(), &st) == nil {
			out = append(out, st)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Host < out[j].Host })
	return out, nil
}

// Forget removes a host's status, for a host that is gone.
func Forget(ctx context.Context, c *natsconn.Conn, host string) error {
	if err := CheckHost(host); err != nil {
		return err
	}
	kv, err := c.JetStream().KeyValue(ctx, Bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		return ErrNoFleet
	}
	if err != nil {
		return fmt.Errorf("fleet: %w", err)
	}
	if _, err := kv.Get(ctx, host); errors.Is(err, jetstream.ErrKeyNotFound) {
		return fmt.Errorf("fleet: no host %s in %s", host, Bucket)
	}
	if err := kv.Purge(ctx, host); err != nil {
		return fmt.Errorf("fleet: forgetting %s: %w", host, err)
	}
	return nil
}
