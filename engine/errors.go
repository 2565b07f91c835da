package engine

import "errors"

// ErrTimeout is reported when a check or an apply did not finish within
// its deadline; the commands it ran were killed.
var ErrTimeout = errors.New("timed out")
