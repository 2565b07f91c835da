package ids

import (
	"strconv"
	"sync"
	"syscall"
)

// cache resolves names to numeric ids, remembering them until db changes.
type cache struct {
	// db is the file whose change forgets every remembered name.
	db     string
	lookup func(name string) (int, error)

	mu sync.Mutex
	// stamp identifies the version of db the ids were read from.
	stamp dbStamp
	ids   map[string]int
}

// superuser is the user and group that are id 0 on every Linux system;
// systemd resolves them without a lookup too. Most managed files belong
// to it, and their checks then cost no stat of the database.
const superuser = "root"

// dbStamp identifies one version of a file: a rewrite changes the inode,
// an edit in place changes the size or the change time.
type dbStamp struct {
	ino, size, ctimeNs int64
}

// id returns the numeric id of name, a number or a name.
func (c *cache) id(name string) (int, error) {
	if name == superuser {
		return 0, nil
	}
	// Only a name that starts with a digit may be a number: a failed
	// parse allocates its error, at every check of a file's owner.
	if name != "" && name[0] >= '0' && name[0] <= '9' {
		if n, err := strconv.ParseUint(name, 10, 31); err == nil {
			return int(n), nil
		}
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
	// A database that changed during the lookup may hold another id.
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
