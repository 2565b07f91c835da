package ids

import "errors"

var (
	// ErrNoSuchUser is returned when a name is no user of this host.
	ErrNoSuchUser = errors.New("no such user")
	// ErrNoSuchGroup is returned when a name is no group of this host.
	ErrNoSuchGroup = errors.New("no such group")
)
