package source

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/reactive-ccm/ccm/engine/fleet/natsconn"
	"github.com/reactive-ccm/ccm/engine/fleet/release"
)

// objectStore is a bundle in a JetStream object store. While a rollout
// of it is under way, a host in its wave takes the rollout's revision from
// the history instead (package release).
type objectStore struct {
	loc  Location
	conn func() (*natsconn.Conn, error)
	max  int64
	// host is this host's name, which decides its place in a rollout.
	host string
	// noRollout is set while the watch knows no rollout record exists,
	// which saves a fetch a request; until the watch is armed it is not.
	noRollout atomic.Bool
}

// object names the object this host takes: the bundle, or the rollout's
// revision when the host is in the wave.
func (o *objectStore) object(ctx context.Context, obs jetstream.ObjectStore) (string, error) {
	if o.noRollout.Load() {
		return o.loc.Key, nil
	}
	r, err := release.ReadRollout(ctx, obs, o.loc.Key)
	if err != nil || r == nil || !release.InWave(o.host, *r) {
		return o.loc.Key, err
	}
	return release.HistoryObject(o.loc.Key, r.Seq), nil
}

// store waits for NATS and opens the bucket; the context it returns ends
// when the connection drops.
func (o *objectStore) store(ctx context.Context) (context.Context, context.CancelFunc, jetstream.ObjectStore, error) {
	return openBucket(ctx, o.conn, o.loc, "object store bucket", jetstream.JetStream.ObjectStore)
}

func (o *objectStore) get(ctx context.Context, prev string) (blob, error) {
	ctx, cancel, obs, err := o.store(ctx)
	if err != nil {
		return blob{}, err
	}
	defer cancel()
	name, err := o.object(ctx, obs)
	if err != nil {
		return blob{}, err
	}
	info, err := obs.GetInfo(ctx, name)
	switch {
	case errors.Is(err, jetstream.ErrObjectNotFound):
		return blob{}, fmt.Errorf("%w: no object %s in bucket %s", ErrGone, o.loc.Key, o.loc.Bucket)
	case err != nil:
		return blob{}, err
	case info.Digest == prev:
		return blob{}, errUnchanged
	case int64(info.Size) > o.max:
		return blob{}, fmt.Errorf("%s is %d bytes, more than the %d allowed", o.loc, info.Size, o.max)
	}
	// The info read with the data is the one that counts: the object may
	// have been replaced since GetInfo.
	data, got, err := release.Fetch(ctx, obs, name, o.max)
	if err != nil {
		return blob{}, err
	}
	return blob{id: got.Digest, data: data, sig: []byte(got.Metadata[release.SignatureMeta])}, nil
}

func (o *objectStore) watch(ctx context.Context, changed func()) error {
	ctx, cancel, obs, err := o.store(ctx)
	if err != nil {
		return err
	}
	defer cancel()
	w, err := obs.Watch(ctx)
	if err != nil {
		return err
	}
	defer w.Stop()
	defer o.noRollout.Store(false)
	armed, rollout := false, false
	return follow(ctx, w.Updates(), "object store", func(info *jetstream.ObjectInfo) {
		switch {
		case info == nil:
			// The initial values are in: armed, so look once.
			armed = true
		case info.Name == release.RolloutName(o.loc.Key):
			rollout = !info.Deleted
		case info.Name != o.loc.Key:
			return
		}
		o.noRollout.Store(armed && !rollout)
		changed()
	})
}
