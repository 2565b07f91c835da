package archive

import (
	"errors"
	"fmt"
	"os/user"
	"strconv"
)

// lookupUID resolves a user name or a numeric uid.
func lookupUID(name string) (int, error) {
	return lookupID("owner", "user", name, func(n string) (string, error) {
		u, err := user.Lookup(n)
		if err != nil {
			return "", err
		}
		return u.Uid, nil
	})
}

// lookupGID resolves a group name or a numeric gid.
func lookupGID(name string) (int, error) {
	return lookupID("group", "group", name, func(n string) (string, error) {
		g, err := user.LookupGroup(n)
		if err != nil {
			return "", err
		}
		return g.Gid, nil
	})
}

// lookupID takes a number as the id itself, as the file resource does,
// and looks anything else up by name.
func lookupID(prop, what, name string, lookup func(string) (string, error)) (int, error) {
	if n, err := strconv.ParseUint(name, 10, 31); err == nil {
		return int(n), nil
	}
	id, err := lookup(name)
	if err == nil {
		return strconv.Atoi(id)
	}
	var uu user.UnknownUserError
	var ug user.UnknownGroupError
	if errors.As(err, &uu) || errors.As(err, &ug) {
		return -1, fmt.Errorf("%s %q: no such %s", prop, name, what)
	}
	return -1, fmt.Errorf("%s %q: %w", prop, name, err)
}

// ownerName names a uid for messages.
func ownerName(uid int) string {
	if u, err := user.LookupId(strconv.Itoa(uid)); err == nil {
		return u.Username
	}
	return strconv.Itoa(uid)
}

// groupName names a gid for messages.
func groupName(gid int) string {
	if g, err := user.LookupGroupId(strconv.Itoa(gid)); err == nil {
		return g.Name
	}
	return strconv.Itoa(gid)
}
