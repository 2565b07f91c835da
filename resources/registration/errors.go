package registration

import "errors"

// ErrInvalid is wrapped by every problem found in a registration entry.
var ErrInvalid = errors.New("registration is invalid")
