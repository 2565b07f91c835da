package inotify

import (
	"path/filepath"

	"golang.org/x/sys/unix"
)

// shape is how a target is watched, after what its path was when armed.
type shape uint8

const (
	// shapeFile watches the head for every change among its entries: the
	// path is not a directory, or is missing and was never seen as one.
	shapeFile shape = iota
	// shapeDir watches the path, a directory, for its own attributes and
	// fate, and its parent for entries going or replaced only, so files
	// made and written beside it wake nobody.
	shapeDir
	// shapeAwaitDir watches the head for entries only: the path was a
	// directory and is missing now.
	shapeAwaitDir
)

// shapeFor is the shape a target takes once an entry of the kind ev
// reports appears at its path.
func shapeFor(ev uint32) shape {
	if ev&unix.IN_ISDIR != 0 {
		return shapeDir
	}
	return shapeFile
}

// kind is what a path is, as far as planning its watches goes.
type kind uint8

const (
	kindMissing kind = iota
	kindDir
	kindOther
)

func kindOf(path string) kind {
	var st unix.Stat_t
	switch err := unix.Lstat(path, &st); {
	case err != nil:
		return kindMissing
	case st.Mode&unix.S_IFMT == unix.S_IFDIR:
		return kindDir
	}
	return kindOther
}

// plan is what to watch for a target: dirs from its head up, the first
// of them with the needs in first.
type plan struct {
	shape shape
	kind  kind
	dirs  []string
	first []need
}

// planOf looks at path; wasDir is what the target remembers of it.
func planOf(path string, wasDir bool) plan {
	k := kindOf(path)
	switch {
	case k == kindDir:
		return plan{shape: shapeDir, kind: k, dirs: append([]string{path}, chainFrom(filepath.Dir(path))...), first: []need{needDir, needName}}
	case k == kindMissing && wasDir:
		return plan{shape: shapeAwaitDir, kind: k, dirs: chainOf(path), first: []need{needEntries}}
	}
	return plan{shape: shapeFile, kind: k, dirs: chainOf(path), first: []need{needAll}}
}

// dir is what a target remembers of its path after this plan: whether it
// was a directory when last seen existing.
func (p plan) dir(wasDir bool) bool {
	if p.kind == kindMissing {
		return wasDir
	}
	return p.kind == kindDir
}

// holds reports whether the plan still fits path once its watches are
// armed: a change between looking and watching sent no event to them.
// A missing path that became a file needs nothing more; its watches are
// wider than needed only.
func (p plan) holds(path string) bool {
	switch p.shape {
	case shapeDir:
		return kindOf(path) == kindDir
	case shapeAwaitDir:
		return kindOf(path) == kindMissing && existingAncestor(filepath.Dir(path)) == p.dirs[0]
	}
	return existingAncestor(filepath.Dir(path)) == p.dirs[0]
}
