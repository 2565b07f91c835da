package ownership

import (
	"errors"
	"fmt"
	"os/user"
	"strconv"

	"golang.org/x/sys/unix"
)

// Flag is the command-line flag that calls Allow.
const Flag = "allow-unsafe-ownership"

var (
	// ErrUnsafe is matched by every UnsafeError.
	ErrUnsafe = errors.New("unsafe ownership")
	// ErrNotRegular is what reading anything but a regular file returns: a
	// FIFO, a device, a socket, a directory or, where links are not
	// followed, a symlink.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge is what reading a file above its limit returns.
	ErrTooLarge = errors.New("file too large")
	// errChanged is a component that changed between two looks at it,
	// which only a trusted user can do, or anyone under Allow.
	errChanged = errors.New("changed while being opened; try again")
)

// UnsafeError is a file, directory or symlink the rule refuses.
type UnsafeError struct {
	// Path is what was asked for.
	Path string
	// At is the file, directory or link at fault: Path or one on the way.
	At string
	// Why says what is wrong with At: its owner or its mode.
	Why string
}

func (e *UnsafeError) Error() string {
	where := ""
	if e.At != e.Path {
		where = e.Path + ": "
	}
	return fmt.Sprintf("%v: %s%s; whoever can change it can change what ccm does: "+
		"give it to root (or to ccm's user) and take away others' write access (chown root, chmod go-w), or pass --%s to use it anyway",
		ErrUnsafe, where, e.Reason(), Flag)
}

// Reason says what is wrong and where: "/srv/ccm is owned by uid 1000
// (alice)".
func (e *UnsafeError) Reason() string { return e.At + " " + e.Why }

func (e *UnsafeError) Is(target error) bool { return target == ErrUnsafe }

// ownerWhy says who owns st.
func ownerWhy(st *unix.Stat_t) string {
	return "is owned by " + UserName(st.Uid)
}

// writableWhy says who besides the owner may write st.
func writableWhy(st *unix.Stat_t) string {
	mode := st.Mode & 0o7777
	if st.Mode&0o002 != 0 {
		return fmt.Sprintf("is writable by every user (mode %04o)", mode)
	}
	// With an ACL, the group bits are its mask: a named user or group
	// may write only when they allow it.
	return fmt.Sprintf("is writable by group %s or by its ACL's entries (mode %04o)", groupName(st.Gid), mode)
}

// UserName names uid for messages: "uid 1000 (alice)", or "uid 1000"
// when it has no name.
func UserName(uid uint32) string {
	id := strconv.FormatUint(uint64(uid), 10)
	if u, err := user.LookupId(id); err == nil {
		return fmt.Sprintf("uid %s (%s)", id, u.Username)
	}
	return "uid " + id
}

func groupName(gid uint32) string {
	id := strconv.FormatUint(uint64(gid), 10)
	if g, err := user.LookupGroupId(id); err == nil {
		return fmt.Sprintf("%s (%s)", id, g.Name)
	}
	return id
}
