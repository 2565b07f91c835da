package safepath

import (
	"fmt"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// Policy says which symlinks a walk from / may follow besides trusted
// ones. The zero Policy follows trusted links only.
type Policy struct {
	// allowed holds the paths of links followed whoever owns them, as a
	// walk reaches them.
	allowed map[string]bool
}

// Allow returns a Policy that also follows the symlinks at these paths,
// whoever owns them: the operator has said they may redirect. Each must be
// absolute and clean, as a walk reaches links.
func Allow(links ...string) (Policy, error) {
	if len(links) == 0 {
		return Policy{}, nil
	}
	p := Policy{allowed: make(map[string]bool, len(links))}
	for _, l := range links {
		if !filepath.IsAbs(l) || filepath.Clean(l) != l {
			return Policy{}, fmt.Errorf("%q is not an absolute, clean path", l)
		}
		p.allowed[l] = true
	}
	return p, nil
}

func (p Policy) allows(link string) bool { return p.allowed[link] }

// untrusted says why someone other than root may have made the link
// described by link, in the directory described by dir, or may replace
// it; "" when only root can. The sticky bit stops others from renaming or
// removing a link they do not own.
func untrusted(dir, link *unix.Stat_t) string {
	switch {
	case link.Uid != 0:
		return fmt.Sprintf("the link is owned by uid %d", link.Uid)
	case dir.Uid != 0:
		return fmt.Sprintf("its directory is owned by uid %d", dir.Uid)
	case dir.Mode&0o022 != 0 && dir.Mode&unix.S_ISVTX == 0:
		return "its directory is writable by others"
	}
	return ""
}

// writableByOthers reports whether someone other than root may add names
// to the directory described by st.
func writableByOthers(st *unix.Stat_t) bool {
	return st.Uid != 0 || st.Mode&0o022 != 0
}
