package textfile

import "errors"

var (
	// ErrMissing is returned by Replace of a file that does not exist
	// when no attributes for a new one are given.
	ErrMissing = errors.New("does not exist")
	// ErrNotRegular is returned for anything at the path but a regular
	// file: a directory, a symlink, a device.
	ErrNotRegular = errors.New("is not a regular file")
	// ErrNoParent is returned when the directory that would hold a new
	// file does not exist.
	ErrNoParent = errors.New("parent directory does not exist")
	// ErrBusy is returned by ReadSettled for a file another program kept
	// open for writing throughout Settle.
	ErrBusy = errors.New("is being written by another program; retrying later")
)
