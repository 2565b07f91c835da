package safepath

import (
	"errors"
	"fmt"

	"github.com/reactive-ccm/ccm/internal/ownership"
)

var (
	// ErrSymlink is matched by every SymlinkError.
	ErrSymlink = errors.New("refusing to follow symlink")
	// ErrMountPoint is returned when RemoveAll meets a mount point, which
	// it never crosses.
	ErrMountPoint = errors.New("is a mount point; not crossing it")
	// ErrTooDeep is returned when a tree is deeper than MaxDepth.
	ErrTooDeep = errors.New("directory tree too deep")
	// ErrNotRegular is returned by ReadFile for anything but a regular
	// file: a FIFO, a device, a socket, a directory.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge is returned by ReadFile for a file above its limit:
	// ownership's, whose bounded read ReadFile shares.
	ErrTooLarge = ownership.ErrTooLarge
	// ErrHardLinked is returned by SetAttrs for a file with other hard
	// links in a directory someone else can write: changing its owner or
	// mode would change the other names too.
	ErrHardLinked = errors.New("has other hard links")
	// ErrBadName is a name given to a Dir method that is not one path
	// component.
	ErrBadName = errors.New("not a single path component")
)

// SymlinkError is a symlink a walk refused to follow.
type SymlinkError struct {
	// Link is the link's path as the walk reached it.
	Link string
	// Target is what the link points to, as written in it.
	Target string
	// Why says what makes the link untrusted.
	Why string
}

func (e *SymlinkError) Error() string {
	return fmt.Sprintf("%v %s -> %s (%s)", ErrSymlink, e.Link, e.Target, e.Why)
}

func (e *SymlinkError) Is(target error) bool { return target == ErrSymlink }
