package file

import (
	"errors"
	"fmt"
	"syscall"
)

var (
	// ErrNoParent is returned when the directory a file would be written in
	// does not exist; files never create their parents.
	ErrNoParent = errors.New("parent directory does not exist")
	// ErrIsDirectory is returned when a regular file is wanted where a
	// directory stands; a directory tree is never replaced by a file.
	ErrIsDirectory = errors.New("exists as a directory")
	// ErrNotEmpty is returned when ensure: absent meets a non-empty
	// directory without force.
	ErrNotEmpty = errors.New("is a non-empty directory")
)

// chownHint says what to do when only root may give a file its owner.
func chownHint(err error) error {
	if errors.Is(err, syscall.EPERM) {
		return fmt.Errorf("%w (only root may give files another owner: run ccm as root, or set owner and group to your own user)", err)
	}
	return err
}

// ErrNotUndoable is returned by Save for a path whose state cannot be kept
// for a rollback: a symlink, a special file, a file too large.
var ErrNotUndoable = errors.New("cannot be kept for a rollback")
