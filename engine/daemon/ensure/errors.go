package ensure

import "errors"

var (
	// ErrNoSession is a reference to a resource outside the request when
	// no session store is open.
	ErrNoSession = errors.New("not a resource of this command; to refer to an earlier `ccm ensure`, run both in a session (eval \"$(ccm session new)\", or --session DIR)")
	// ErrInterrupted is a run cancelled before the resource ran.
	ErrInterrupted = errors.New("interrupted before the resource ran")
)
