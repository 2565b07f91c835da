package ownership

import (
	"os"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// Trusted reports whether uid is root or the user ccm runs as: whom ccm
// believes, for files and for the peers of its sockets alike.
func Trusted(uid uint32) bool { return uid == 0 || int(uid) == os.Geteuid() }

// writableByOthers reports whether a group or other write bit is set.
func writableByOthers(st *unix.Stat_t) bool { return st.Mode&0o022 != 0 }

// wayWhy says why the directory st, on the way to a target, is not
// trusted; "" when it is. Others may write a sticky directory: they
// cannot rename or remove what a trusted user owns in it, and everything
// the walk takes from it must be owned by one.
func wayWhy(st *unix.Stat_t) string {
	switch {
	case !Trusted(st.Uid):
		return ownerWhy(st)
	case writableByOthers(st) && st.Mode&unix.S_ISVTX == 0:
		return writableWhy(st)
	}
	return ""
}

// targetWhy says why st, what is read or written, is not trusted; ""
// when it is.
func targetWhy(st *unix.Stat_t) string {
	switch {
	case !Trusted(st.Uid):
		return ownerWhy(st)
	case writableByOthers(st):
		return writableWhy(st)
	}
	return ""
}

// linkWhy says why the symlink st is not followed; "" when it may be.
// Its directory was checked as one on the way.
func linkWhy(st *unix.Stat_t) string {
	if !Trusted(st.Uid) {
		return "is a symlink owned by " + UserName(st.Uid)
	}
	return ""
}

// allowed holds the function Allow was given, nil while the rule holds.
var allowed atomic.Pointer[func(*UnsafeError)]

// Allow makes every later check of this process accept what the rule
// refuses, passing each refusal to warn instead; a nil warn restores the
// rule. It is the command line's --allow-unsafe-ownership.
func Allow(warn func(*UnsafeError)) {
	if warn == nil {
		allowed.Store(nil)
		return
	}
	allowed.Store(&warn)
}

// refuse returns the refusal of at (on the way to path) for why, or nil
// after warning about it when Allow was called; nil when why is "".
func refuse(path, at, why string) error {
	if why == "" {
		return nil
	}
	err := &UnsafeError{Path: path, At: at, Why: why}
	if warn := allowed.Load(); warn != nil {
		(*warn)(err)
		return nil
	}
	return err
}
