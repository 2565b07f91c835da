package release

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Rollout is a staged rollout of a bundle: the history revision Seq goes
// to Percent of the hosts, chosen by a stable hash of their names, while
// the others keep the bundle the object KEY holds. Hosts read it and
// decide themselves, so nothing runs centrally between the steps and a
// host that restarts mid-rollout takes the right revision.
type Rollout struct {
	Seq     int       `json:"seq"`
	Digest  string    `json:"digest"`
	Percent float64   `json:"percent"`
	Started time.Time `json:"started"`
	By      string    `json:"by,omitempty"`
}

const rolloutPrefix = ".rollout/"

// RolloutName is the object holding key's rollout record.
func RolloutName(key string) string { return rolloutPrefix + key }

// HistoryObject is the object holding revision seq of key.
func HistoryObject(key string, seq int) string { return historyName(key, seq) }

// InWave reports whether host is among the Percent of hosts that take the
// rollout's revision: a hash of the host's name and the revision, so each
// rollout picks its own canaries, and a wider wave keeps the hosts of a
// narrower one.
func InWave(host string, r Rollout) bool {
	sum := sha256.Sum256([]byte(host + "\x00" + r.Digest))
	return float64(binary.BigEndian.Uint64(sum[:8])%10_000) < r.Percent*100
}

// ReadRollout returns key's rollout, nil when none is under way.
func ReadRollout(ctx context.Context, obs jetstream.ObjectStore, key string) (*Rollout, error) {
	b, _, err := Fetch(ctx, obs, RolloutName(key), 1<<16)
	if errors.Is(err, jetstream.ErrObjectNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("release: reading the rollout of %s: %w", key, err)
	}
	var r Rollout
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("release: the rollout record of %s is damaged: %w", key, err)
	}
	return &r, nil
}

// WriteRollout publishes r as key's rollout.
func WriteRollout(ctx context.Context, obs jetstream.ObjectStore, key string, r Rollout) error {
	b, err := json.Marshal(r)
	if err == nil {
		_, err = obs.Put(ctx, jetstream.ObjectMeta{Name: RolloutName(key)}, bytes.NewReader(b))
	}
	if err != nil {
		return fmt.Errorf("release: writing the rollout of %s: %w", key, err)
	}
	return nil
}

// Stage keeps b in key's history and starts a rollout of it to percent of
// the hosts; the others keep what key holds, which must exist.
func Stage(ctx context.Context, obs jetstream.ObjectStore, key string, b Bundle, keep int, percent float64) (Rollout, error) {
	if _, err := obs.GetInfo(ctx, key); err != nil {
		return Rollout{}, fmt.Errorf("release: %s holds no bundle for the hosts outside the canary (push one without --canary first): %w", key, err)
	}
	info, seq, err := keepRevision(ctx, obs, key, b)
	if err != nil {
		return Rollout{}, err
	}
	r := Rollout{Seq: seq, Digest: info.Digest, Percent: percent, Started: time.Now().UTC(), By: b.PushedBy}
	if err := WriteRollout(ctx, obs, key, r); err != nil {
		return r, err
	}
	return r, trim(ctx, obs, key, max(keep, DefaultKeep))
}

// Promote makes the rollout's revision the bundle key holds, for every
// host, and ends the rollout.
func Promote(ctx context.Context, obs jetstream.ObjectStore, key string, r Rollout) error {
	name := HistoryObject(key, r.Seq)
	info, err := obs.GetInfo(ctx, name)
	if err != nil {
		return fmt.Errorf("release: revision %d of %s: %w", r.Seq, key, err)
	}
	data, info, err := Fetch(ctx, obs, name, int64(info.Size))
	if err != nil {
		return fmt.Errorf("release: revision %d of %s: %w", r.Seq, key, err)
	}
	if _, err := obs.Put(ctx, jetstream.ObjectMeta{Name: key, Metadata: info.Metadata}, bytes.NewReader(data)); err != nil {
		return fmt.Errorf("release: putting %s: %w", key, err)
	}
	return End(ctx, obs, key)
}

// End removes key's rollout record: every host takes what key holds.
func End(ctx context.Context, obs jetstream.ObjectStore, key string) error {
	if err := obs.Delete(ctx, RolloutName(key)); err != nil && !errors.Is(err, jetstream.ErrObjectNotFound) {
		return fmt.Errorf("release: ending the rollout of %s: %w", key, err)
	}
	return nil
}
