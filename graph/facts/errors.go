package facts

import "errors"

var (
	// ErrTimeout reports sections of system facts that were not gathered
	// in time; the facts returned with it leave those sections empty.
	ErrTimeout = errors.New("facts: gathering timed out")
	// ErrBadFact is a --fact argument that is not KEY=VALUE.
	ErrBadFact = errors.New("facts: expected KEY=VALUE")
	// ErrNotMap is a facts file whose top level is not a map.
	ErrNotMap = errors.New("facts: a facts file must hold a map")
)
