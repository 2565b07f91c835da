package natsconn

import "errors"

// ErrNotConnected is returned when NATS is not reachable right now; the
// connection keeps trying in the background.
var ErrNotConnected = errors.New("natsconn: not connected to NATS")

// ErrPermission is returned when the server refused an operation to the
// user ccm connects as.
var ErrPermission = errors.New("natsconn: permission denied by the NATS server")
