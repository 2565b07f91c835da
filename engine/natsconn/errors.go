package natsconn

import "errors"

// ErrNotConnected is returned when NATS is not reachable right now; the
// connection keeps trying in the background.
var ErrNotConnected = errors.New("natsconn: not connected to NATS")
