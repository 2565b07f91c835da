package session

import "errors"

var (
	// ErrNotStore is returned for a directory that is not a session store.
	ErrNotStore = errors.New("session: not a session store")
	// ErrNoEvents is returned for a reference no event of the session names.
	ErrNoEvents = errors.New("no event of this session names it")
	// ErrFailed is what a reference to a resource that failed in an
	// earlier call of the session reports.
	ErrFailed = errors.New("failed earlier in this session")
)
