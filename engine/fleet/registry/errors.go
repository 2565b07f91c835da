package registry

import "errors"

var (
	// ErrDestination is a destination other than nats or jetstream.
	ErrDestination = errors.New("registry: the registration destination is nats or jetstream")
	// ErrUnavailable is a lookup made while the registration stream
	// cannot be read: NATS is away, or the stream does not exist.
	ErrUnavailable = errors.New("registry: the registration stream cannot be read")
)
