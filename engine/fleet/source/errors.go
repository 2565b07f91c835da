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
	// ErrUntrusted is returned for a source, or a cached copy, that the
	// trust rules do not let ccm use.
	ErrUntrusted = errors.New("source: untrusted")
	// ErrDowngrade is returned for a signed revision older than the newest
	// one the host accepted.
	ErrDowngrade = errors.New("source: older than the revision accepted")
	// errSuperseded cancels a fetch that a newer change made obsolete.
	errSuperseded = errors.New("source: superseded by a newer change")
	// errUnchanged is a conditional fetch finding the revision held.
	errUnchanged = errors.New("source: unchanged")
)
