package scaffold

import "errors"

var (
	// ErrRender is returned when the templates cannot be rendered.
	ErrRender = errors.New("scaffold: rendering failed")
	// ErrPost is returned when a post command fails or times out.
	ErrPost = errors.New("scaffold: post command failed")
)
