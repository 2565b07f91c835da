package source

import "context"

// blob is one version of a remote object as fetched.
type blob struct {
	id   string
	data []byte
	// sig is the detached signature, when the source has one.
	sig []byte
}

// backend speaks to one kind of remote store.
type backend interface {
	// get fetches the current version. With prev set to the ID held it
	// may answer errUnchanged; ErrGone when the object does not exist.
	get(ctx context.Context, prev string) (blob, error)
	// watch calls changed whenever the object may have changed, and once
	// when armed, until ctx ends or the watch breaks (its error).
	watch(ctx context.Context, changed func()) error
}
