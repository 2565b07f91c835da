package mount

import "errors"

var (
	// ErrNoDevice is returned when a UUID= or LABEL= names no device on
	// this host.
	ErrNoDevice = errors.New("no such device")
	// ErrStillMounted is returned when something stays mounted at the
	// point after unmounting what was on top.
	ErrStillMounted = errors.New("still mounted")
)
