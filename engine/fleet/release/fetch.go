package release

import (
	"context"
	"fmt"
	"io"

	"github.com/nats-io/nats.go/jetstream"
)

// Fetch returns the content of the object name, at most limit bytes, and
// the info read with it (the object may have changed since an earlier
// GetInfo). It returns as soon as ctx ends, which reading the client's
// result does not: an object replaced or deleted while it is read loses
// its chunks, and the client's read then waits for ctx's deadline, however
// early ctx is cancelled. A read left behind that way ends at that
// deadline.
func Fetch(ctx context.Context, obs jetstream.ObjectStore, name string, limit int64) ([]byte, *jetstream.ObjectInfo, error) {
	res, err := obs.Get(ctx, name)
	if err != nil {
		return nil, nil, ended(ctx, err)
	}
	// Info before reading: a blocked read holds the result's lock.
	info, err := res.Info()
	if err != nil {
		res.Close()
		return nil, nil, ended(ctx, err)
	}
	type read struct {
		data []byte
		err  error
	}
	done := make(chan read, 1)
	go func() {
		defer res.Close()
		data, err := io.ReadAll(io.LimitReader(res, limit+1))
		done <- read{data, err}
	}()
	var r read
	select {
	case <-ctx.Done():
		return nil, nil, ended(ctx, ctx.Err())
	case r = <-done:
	}
	switch {
	case r.err != nil:
		return nil, nil, ended(ctx, r.err)
	case int64(len(r.data)) > limit:
		return nil, nil, fmt.Errorf("%s is more than the %d bytes allowed", name, limit)
	}
	return r.data, info, nil
}

// ended returns why ctx ended when it did, err otherwise: a fetch that is
// called off says why, not only that it was cancelled.
func ended(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	return err
}
