package exec

import "errors"

var (
	// ErrEmptyCommand is returned when a command, or a guard, has no words.
	ErrEmptyCommand = errors.New("the command is empty")
	// ErrBadEnvironment is returned for an environment entry that is not
	// KEY=VALUE with a valid key and a non-empty value.
	ErrBadEnvironment = errors.New("not KEY=VALUE with a non-empty key and value")
	// ErrNotAbsolute is returned for cwd, creates or a path entry that is
	// not an absolute path.
	ErrNotAbsolute = errors.New("not an absolute path")
	// ErrNotClean is returned for cwd or creates holding ., .., // or a
	// trailing /.
	ErrNotClean = errors.New("not a clean path")
)
