package apt

import "errors"

var (
	// ErrBadVersion is returned for a string that is not a Debian version.
	ErrBadVersion = errors.New("apt: not a Debian version")
	// ErrNoCandidate is returned when apt knows no version to install.
	ErrNoCandidate = errors.New("apt: no installation candidate")
)
