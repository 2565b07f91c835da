package file

import (
	"errors"
	"fmt"
	"os/user"
	"strconv"
	"sync"
	"syscall"
)

// idCache resolves user or group names to numeric ids. A number is taken as
// the id itself. A name is looked up once and remembered until its database
// file (/etc/passwd, /etc/group) changes, so checking an unchanged file costs
// one stat of that file instead of a lookup. A name that does not exist yet
// is never remembered: a package may create it later in the run.
type idCache struct {
	// db is the file whose change forgets every remembered name.
	db     string
	lookup func(name string) (int, error)

	mu sync.Mutex
	// stamp identifies the version of db the ids were read from.
	stamp dbStamp
	ids   map[string]int
}

// dbStamp identifies one version of a file: a rewrite changes the inode,
// an edit in place changes the size or the change time.
type dbStamp struct {
	ino, size, ctimeNs int64
}

var (
	users  = &idCache{db: "/etc/passwd", lookup: lookupUser}
	groups = &idCache{db: "/etc/group", lookup: lookupGroup}
)

// id returns the numeric id of name, a number or a name.
func (c *idCache) id(name string) (int, error) {
	if n, err := strconv.ParseUint(name, 10, 31); err == nil {
		return int(n), nil
	}
	stamp := statStamp(c.db)
	c.mu.Lock()
	if c.stamp != stamp || c.ids == nil {
		c.stamp, c.ids = stamp, map[string]int{}
	}
	id, ok := c.ids[name]
	c.mu.Unlock()
	if ok {
		return id, nil
	}
	id, err := c.lookup(name)
	if err != nil {
		return 0, err
	}
	c.mu.Lock()
	if c.stamp == stamp {
		c.ids[name] = id
	}
	c.mu.Unlock()
	return id, nil
}

// statStamp returns the zero stamp when the file cannot be read, so a
// missing database still caches while it stays missing.
func statStamp(path string) dbStamp {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		return dbStamp{}
	}
	return dbStamp{ino: int64(st.Ino), size: st.Size, ctimeNs: st.Ctim.Nano()}
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
