package authorizedkey

import "errors"

var (
	// ErrNoUser is returned when the user whose key is managed does not
	// exist.
	ErrNoUser = errors.New("no such user")
	// ErrNoHome is returned when the user's home directory does not
	// exist: creating it is the user resource's (managehome).
	ErrNoHome = errors.New("home directory does not exist")
	// ErrNotDirectory is returned when ~/.ssh is not a directory.
	ErrNotDirectory = errors.New("is not a directory")
)
