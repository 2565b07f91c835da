package release_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/reactive-ccm/ccm/engine/fleet/natsconn/natstest"
	"github.com/reactive-ccm/ccm/engine/fleet/release"
)

// store is an object store bucket "ccm" on a real server.
func store(t *testing.T) (jetstream.JetStream, jetstream.ObjectStore) {
	t.Helper()
	js := natstest.Start(t, natstest.Options{}).JetStream()
	obs, err := js.CreateObjectStore(t.Context(), jetstream.ObjectStoreConfig{Bucket: "ccm"})
	if err != nil {
		t.Fatal(err)
	}
	return js, obs
}

func TestFetchReadsAnObjectWithinItsLimit(t *testing.T) {
	_, obs := store(t)
	data := bytes.Repeat([]byte("ccm "), 100_000) // several chunks
	if _, err := obs.Put(t.Context(), jetstream.ObjectMeta{Name: "site.tgz", Metadata: map[string]string{"k": "v"}}, bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	got, info, err := release.Fetch(t.Context(), obs, "site.tgz", int64(len(data)))
	if err != nil || !bytes.Equal(got, data) || info.Metadata["k"] != "v" {
		t.Fatalf("fetch: %d bytes, info %+v, %v", len(got), info, err)
	}
	if _, _, err := release.Fetch(t.Context(), obs, "site.tgz", int64(len(data)-1)); err == nil {
		t.Fatal("an object over the limit was read")
	}
	if _, _, err := release.Fetch(t.Context(), obs, "missing", 10); !errors.Is(err, jetstream.ErrObjectNotFound) {
		t.Fatalf("a missing object: %v", err)
	}
}

// An object replaced or deleted while a host reads it loses its chunks:
// the client's read then waits for the context's deadline. A fetch that
// is called off meanwhile (a newer change superseding it) must return at
// once, with why, or the host misses every change until that deadline.
func TestFetchOfAnObjectWhoseChunksAreGoneReturnsWhenCalledOff(t *testing.T) {
	js, obs := store(t)
	info, err := obs.PutBytes(t.Context(), ".rollout/site.tgz", []byte(`{"seq":2,"percent":20}`))
	if err != nil {
		t.Fatal(err)
	}
	// What a put or delete racing the read leaves it: the description
	// still names chunks the server no longer has.
	stream, err := js.Stream(t.Context(), "OBJ_ccm")
	if err == nil {
		err = stream.Purge(t.Context(), jetstream.WithPurgeSubject(fmt.Sprintf("$O.ccm.C.%s", info.NUID)))
	}
	if err != nil {
		t.Fatal(err)
	}

	superseded := errors.New("superseded by a newer change")
	// The client's read ends at this deadline, when Fetch waits for it.
	deadline := time.Now().Add(time.Minute)
	ctx, cancel := context.WithDeadline(t.Context(), deadline)
	defer cancel()
	ctx, callOff := context.WithCancelCause(ctx)
	reading := make(chan struct{})
	go func() {
		<-reading
		callOff(superseded)
	}()
	_, _, err = release.Fetch(ctx, signalling{obs, reading}, ".rollout/site.tgz", 1<<16)
	if !time.Now().Before(deadline) {
		t.Fatal("a fetch called off while reading a replaced object waited for the deadline")
	}
	if !errors.Is(err, superseded) {
		t.Fatalf("a fetch called off while reading a replaced object: %v, want %v", err, superseded)
	}
	if _, err := release.ReadRollout(ctx, obs, "site.tgz"); !errors.Is(err, superseded) {
		t.Fatalf("reading the rollout once called off: %v", err)
	}
}

// signalling is an object store whose results close reading when they
// are first read.
type signalling struct {
	jetstream.ObjectStore
	reading chan struct{}
}

func (s signalling) Get(ctx context.Context, name string, opts ...jetstream.GetObjectOpt) (jetstream.ObjectResult, error) {
	res, err := s.ObjectStore.Get(ctx, name, opts...)
	if err != nil {
		return nil, err
	}
	return &signalled{ObjectResult: res, reading: s.reading}, nil
}

type signalled struct {
	jetstream.ObjectResult
	reading chan struct{}
	once    bool
}

func (r *signalled) Read(p []byte) (int, error) {
	if !r.once {
		r.once = true
		close(r.reading)
	}
	return r.ObjectResult.Read(p)
}
