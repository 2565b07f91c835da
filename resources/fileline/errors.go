package fileline

import "errors"

var (
	// ErrNoFile is returned when the file to edit does not exist.
	ErrNoFile = errors.New("does not exist")
	// ErrNoEndMarker is returned for a block whose begin marker has no
	// end marker after it: where the block ends is unknown, so nothing
	// is changed.
	ErrNoEndMarker = errors.New("has the block's begin marker without its end marker")
)
