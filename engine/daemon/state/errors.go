package state

import "errors"

var (
	// ErrBadName is returned for a name that is not a single, plain path
	// component.
	ErrBadName = errors.New("state: bad name")
	// ErrUnsafe is returned for a state directory others could tamper with.
	ErrUnsafe = errors.New("state: unsafe directory")
	// ErrReadOnly is returned for a write to a directory opened read-only.
	ErrReadOnly = errors.New("state: opened read-only (noop)")
)
