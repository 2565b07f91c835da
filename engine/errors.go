package engine

import "errors"

// ErrUnknownResource is returned when a reference names no resource of
// the running graph.
var ErrUnknownResource = errors.New("engine: no such resource")
