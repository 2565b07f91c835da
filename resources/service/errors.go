package service

import "errors"

var (
	// ErrUnknownUnit is returned when systemd has no unit of that name.
	ErrUnknownUnit = errors.New("unit not found")
	// ErrUnexpectedState is returned when a unit is in a state the
	// resource does not know how to read.
	ErrUnexpectedState = errors.New("unexpected unit state")
	// ErrJobFailed is returned when a start, stop or restart job did not
	// finish with "done".
	ErrJobFailed = errors.New("systemd job did not succeed")
)
