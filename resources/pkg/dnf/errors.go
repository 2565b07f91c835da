package dnf

import "errors"

// ErrBadVersion is returned for a version whose epoch is not a number.
var ErrBadVersion = errors.New("dnf: not an rpm version")
