package release

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"
)

// Bundle is what is published: the tarball, its signature (empty when
// unsigned) and who pushes it.
type Bundle struct {
	Data      []byte
	Signature []byte
	PushedBy  string
}

// Open returns the object store bucket, creating it when create is set
// and it is missing.
func Open(ctx context.Context, js jetstream.JetStream, bucket string, create bool) (jetstream.ObjectStore, error) {
	obs, err := js.ObjectStore(ctx, bucket)
	if create && errors.Is(err, jetstream.ErrBucketNotFound) {
		obs, err = js.CreateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: bucket, Description: "ccm manifest bundles"})
	}
	if err != nil {
		return nil, fmt.Errorf("release: object store %s: %w", bucket, err)
	}
	return obs, nil
}

// Publish makes b the bundle key holds for every host, keeping it in the
// history too (the last keep revisions; DefaultKeep when keep is 0), and
// ends a rollout under way. The history entry is written first, so a
// revision hosts run is always in it.
func Publish(ctx context.Context, obs jetstream.ObjectStore, key string, b Bundle, keep int) (*jetstream.ObjectInfo, error) {
	if keep <= 0 {
		keep = DefaultKeep
	}
	hist, _, err := keepRevision(ctx, obs, key, b)
	if err != nil {
		return nil, err
	}
	meta := hist.Metadata
	info, err := obs.Put(ctx, jetstream.ObjectMeta{Name: key, Metadata: meta}, bytes.NewReader(b.Data))
	if err != nil {
		return nil, fmt.Errorf("release: putting %s: %w", key, err)
	}
	// A bundle published for every host ends a rollout under way.
	if err := End(ctx, obs, key); err != nil {
		return info, err
	}
	return info, trim(ctx, obs, key, keep)
}

// keepRevision writes b as the next revision of key's history.
func keepRevision(ctx context.Context, obs jetstream.ObjectStore, key string, b Bundle) (*jetstream.ObjectInfo, int, error) {
	meta := map[string]string{}
	if sig := bytes.TrimSpace(b.Signature); len(sig) > 0 {
		meta[SignatureMeta] = string(sig)
	}
	if b.PushedBy != "" {
		meta[PushedByMeta] = b.PushedBy
	}
	all, err := History(ctx, obs, key)
	if err != nil {
		return nil, 0, err
	}
	seq := 1
	if len(all) > 0 {
		seq = all[len(all)-1].Seq + 1
	}
	info, err := obs.Put(ctx, jetstream.ObjectMeta{Name: historyName(key, seq), Metadata: meta}, bytes.NewReader(b.Data))
	if err != nil {
		return nil, 0, fmt.Errorf("release: keeping %s in its history: %w", key, err)
	}
	return info, seq, nil
}
