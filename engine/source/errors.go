package source

import "errors"

var (
	// ErrLocation is returned for a source address ccm cannot use.
	ErrLocation = errors.New("source: bad location")
	// ErrGone is returned when the object, key or URL does not exist.
	ErrGone = errors.New("source: not found")
	// ErrUnavailable is returned when a source can be neither fetched nor
	// read from the cache.
	ErrUnavailable = errors.New("source: unavailable")
	// errUnchanged is a conditional fetch finding the revision held.
	errUnchanged = errors.New("source: unchanged")
)
