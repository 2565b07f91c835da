package engine

import "errors"

// ErrUnknownResource is returned when a reference names no resource of
// the running graph.
var ErrUnknownResource = errors.New("engine: no such resource")

// ErrTimeout is reported when a check or an apply did not finish within
// its deadline; the commands it ran were killed.
var ErrTimeout = errors.New("timed out")
