package systemd

import "errors"

var (
	// ErrUnavailable is returned by Conn when the hub has no connection to
	// systemd; it wraps the reason, and the hub keeps retrying.
	ErrUnavailable = errors.New("systemd: not reachable over D-Bus")
	// ErrClosed is returned after Close.
	ErrClosed = errors.New("systemd: hub closed")
)
