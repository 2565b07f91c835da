package kernel

import "errors"

var (
	// ErrClosed is returned by every method once Close was called.
	ErrClosed = errors.New("inotify: instance closed")
	// ErrWider is wrapped by the errors of Watch and Unwatch that leave
	// the watches in place but holding more events than asked, because a
	// directory was renamed, replaced or removed during the call. The
	// kernel reports that rename, replacement or removal as an event.
	ErrWider = errors.New("watch left wider than asked")
)
