package scaffold

import "errors"

var (
	// ErrRender is returned when the templates cannot be rendered.
	ErrRender = errors.New("scaffold: rendering failed")
	// ErrPost is returned when a post command fails or times out.
	ErrPost = errors.New("scaffold: post command failed")
	// ErrNotUndoable is returned by Save when what an apply would change
	// cannot be kept for a rollback: a symlink or special file where a
	// file is rendered or purged, or files too large together.
	ErrNotUndoable = errors.New("scaffold: cannot be kept for a rollback")
)
