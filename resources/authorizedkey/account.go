package authorizedkey

import (
	"errors"
	"fmt"
	"os/user"
	"strconv"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	"golang.org/x/sys/unix"
)

// account is what the user database says of the key's user.
type account struct {
	name     string
	uid, gid int
	home     string
}

// lookup reads name's account; a user that does not exist is ErrNoUser.
func lookup(name string) (*account, error) {
	u, err := user.Lookup(name)
	if errors.As(err, new(user.UnknownUserError)) {
		return nil, fmt.Errorf("%w %q", ErrNoUser, name)
	}
	if err != nil {
		return nil, fmt.Errorf("looking up user %q: %w", name, err)
	}
	uid, err := strconv.Atoi(u.Uid)
	if err != nil {
		return nil, err
	}
	gid, err := strconv.Atoi(u.Gid)
	if err != nil {
		return nil, err
	}
	return &account{name: name, uid: uid, gid: gid, home: u.HomeDir}, nil
}

// keysFile is the authorized_keys of a home.
func keysFile(home string) string { return home + "/.ssh/authorized_keys" }

// dirDrift is what ~/.ssh lacks: it is missing, or not the user's, or
// writable by group or others.
type dirDrift struct {
	missing bool
	uid     int
	mode    uint32
}

// sshDir looks at ~/.ssh, reached by safepath's walk; nil when it is in
// order.
func (a *account) sshDir() (*dirDrift, error) {
	st, _, err := safepath.Policy{}.Stat(a.home+"/.ssh", false)
	switch {
	case errors.Is(err, unix.ENOENT):
		return &dirDrift{missing: true}, nil
	case err != nil:
		return nil, err
	case st.Mode&unix.S_IFMT != unix.S_IFDIR:
		return nil, fmt.Errorf("%s/.ssh %w", a.home, ErrNotDirectory)
	case int(st.Uid) == a.uid && st.Mode&0o022 == 0:
		return nil, nil
	}
	return &dirDrift{uid: int(st.Uid), mode: st.Mode & 0o7777}, nil
}

func (d *dirDrift) differences() []resources.Difference {
	if d.missing {
		return []resources.Difference{resources.Differs("ssh_dir", Absent, "0700")}
	}
	return []resources.Difference{resources.Differs("ssh_dir", fmt.Sprintf("uid %d mode %04o", d.uid, d.mode), "the user's, no group or other write")}
}

// fixSSHDir creates ~/.ssh (mode 0700) or gives it to the user and takes
// group and other write away, relative to the home opened by safepath.
func (a *account) fixSSHDir(d *dirDrift) error {
	home, err := safepath.Policy{}.OpenDir(a.home)
	if errors.Is(err, unix.ENOENT) {
		return fmt.Errorf("%w: %s; create it first (the user resource's managehome)", ErrNoHome, a.home)
	}
	if err != nil {
		return err
	}
	defer home.Close()
	mode := d.mode &^ 0o022
	if d.missing {
		mode = 0o700
		if err := home.Mkdir(".ssh", 0o700); err != nil {
			return err
		}
	}
	return home.SetAttrs(".ssh", a.uid, a.gid, mode)
}
