package inotify

import (
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// chainOf lists the directories to watch for path: the deepest existing
// ancestor, then each directory above it up to "/".
func chainOf(path string) []string {
	return chainFrom(existingAncestor(filepath.Dir(path)))
}

// chainFrom lists dir and each directory above it up to "/".
func chainFrom(dir string) []string {
	var chain []string
	for {
		chain = append(chain, dir)
		parent := filepath.Dir(dir)
		if parent == dir {
			return chain
		}
		dir = parent
	}
}

// existingAncestor returns dir if it is an existing directory, else its
// nearest existing ancestor.
func existingAncestor(dir string) string {
	for {
		// A Stat_t on the stack: this runs for every path armed.
		var st unix.Stat_t
		if unix.Stat(dir, &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFDIR {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return dir
		}
		dir = parent
	}
}

// nextBelow returns the path component of path directly below dir.
func nextBelow(dir, path string) string {
	rest := strings.TrimPrefix(path, strings.TrimSuffix(dir, "/")+"/")
	first, _, _ := strings.Cut(rest, "/")
	return filepath.Join(dir, first)
}

// isUnder reports whether path is dir or inside it, without building
// dir+"/": it runs for every event of a hub with trees.
func isUnder(path, dir string) bool {
	return path == dir || dir == "/" || len(path) > len(dir) && path[len(dir)] == '/' && strings.HasPrefix(path, dir)
}

// absolute makes path absolute: events name watched directories as they
// were added, so a relative path would never match absolute ones.
func absolute(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return filepath.Clean(path)
}
