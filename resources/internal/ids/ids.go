package ids

import (
	"errors"
	"fmt"
	"os/user"
	"strconv"
)

var (
	users  = &cache{db: "/etc/passwd", lookup: lookupUser}
	groups = &cache{db: "/etc/group", lookup: lookupGroup}
)

// UID returns the uid of name, a user name or a number.
func UID(name string) (int, error) { return users.id(name) }

// GID returns the gid of name, a group name or a number.
func GID(name string) (int, error) { return groups.id(name) }

// Resolve returns the uid of owner and the gid of group, each a name or a
// number. Its errors name the property: `owner: no such user "app"`.
func Resolve(owner, group string) (uid, gid int, err error) {
	if uid, err = UID(owner); err != nil {
		return 0, 0, fmt.Errorf("owner: %w", err)
	}
	if gid, err = GID(group); err != nil {
		return 0, 0, fmt.Errorf("group: %w", err)
	}
	return uid, gid, nil
}

// UserName names uid for messages: its user's name, or the number when
// the host has no name for it.
func UserName(uid int) string {
	if u, err := user.LookupId(strconv.Itoa(uid)); err == nil {
		return u.Username
	}
	return strconv.Itoa(uid)
}

// GroupName names gid for messages: its group's name, or the number when
// the host has no name for it.
func GroupName(gid int) string {
	if g, err := user.LookupGroupId(strconv.Itoa(gid)); err == nil {
		return g.Name
	}
	return strconv.Itoa(gid)
}

func lookupUser(name string) (int, error) {
	u, err := user.Lookup(name)
	if err != nil {
		if errors.As(err, new(user.UnknownUserError)) {
			return 0, fmt.Errorf("%w %q", ErrNoSuchUser, name)
		}
		return 0, fmt.Errorf("looking up user %q: %w", name, err)
	}
	return strconv.Atoi(u.Uid)
}

func lookupGroup(name string) (int, error) {
	g, err := user.LookupGroup(name)
	if err != nil {
		if errors.As(err, new(user.UnknownGroupError)) {
			return 0, fmt.Errorf("%w %q", ErrNoSuchGroup, name)
		}
		return 0, fmt.Errorf("looking up group %q: %w", name, err)
	}
	return strconv.Atoi(g.Gid)
}
