package scaffold

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	"github.com/reactive-ccm/ccm/resources/internal/textdiff"
	"golang.org/x/sys/unix"
)

// state is how the target compares with a rendering. Paths are relative
// to the target, sorted.
type state struct {
	targetExists bool
	// added are rendered files missing from the target.
	added []string
	// updated differ from their rendering: content, permission bits, or
	// not a regular file.
	updated []string
	// stable are equal to their rendering.
	stable []string
	// purged are files in the target the templates do not produce. They
	// are listed only when purge is set: nothing else needs them.
	purged []string
}

// compare classifies every rendered file against the target, open as
// target (nil when missing: every file is added). It reads and never
// writes, but removes the temporary files a killed apply left. No symlink
// below the target is followed.
func (s *scaffold) compare(r *rendering, target *safepath.Dir) (state, error) {
	var st state
	if target == nil {
		st.added = r.sorted()
		return st, nil
	}
	subs := target.Subdirs()
	defer subs.Close()
	for _, rel := range r.sorted() {
		c, err := compareFile(r, rel, subs)
		if err != nil {
			return st, err
		}
		switch c {
		case missing:
			st.added = append(st.added, rel)
		case differs:
			st.updated = append(st.updated, rel)
		default:
			st.stable = append(st.stable, rel)
		}
	}
	if !s.p.Purge {
		return st, nil
	}
	var err error
	st.purged, err = strays(r, target)
	return st, err
}

// comparison is how one target file compares with its rendering.
type comparison int

const (
	equal comparison = iota
	missing
	differs
)

// compareFile compares the target file rel with its rendering: content
// and permission bits.
func compareFile(r *rendering, rel string, subs *safepath.Subdirs) (comparison, error) {
	dir, base, err := subs.Parent(rel)
	if errors.Is(err, unix.ENOENT) {
		return missing, nil
	}
	if err != nil {
		return differs, err
	}
	if err := dir.RemoveLeftovers(base); err != nil {
		return differs, err
	}
	st, err := dir.Stat(base)
	want := r.files[rel]
	switch {
	case errors.Is(err, unix.ENOENT):
		return missing, nil
	case err != nil:
		return differs, err
	case st.Mode&unix.S_IFMT == unix.S_IFDIR:
		return differs, fmt.Errorf("%s is a directory where the scaffold renders a file; remove it", dir.Join(base))
	case st.Mode&unix.S_IFMT != unix.S_IFREG || st.Mode&0o777 != want.perm || st.Size != want.size:
		return differs, nil
	}
	// Scaffolds render configuration: files small enough to compare whole.
	a, err := os.ReadFile(r.path(rel))
	if err != nil {
		return differs, err
	}
	if same, err := holds(dir, base, a); err != nil || !same {
		return differs, err
	}
	return equal, nil
}

// holds reports whether base in dir, a regular file its stat found to be
// of len(want) bytes, holds want.
func holds(dir *safepath.Dir, base string, want []byte) (bool, error) {
	f, err := dir.Open(base, unix.O_RDONLY|unix.O_NONBLOCK)
	if err != nil {
		return false, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, int64(len(want))+1))
	if err != nil {
		return false, err
	}
	return bytes.Equal(b, want), nil
}

// strays lists the target's files that the rendering does not produce.
// A symlink is listed as the file it is; the walk enters no link and no
// mount point.
func strays(r *rendering, target *safepath.Dir) ([]string, error) {
	var out []string
	err := target.Walk(func(_ *safepath.Dir, _, rel string, isDir bool) error {
		if _, ok := r.files[rel]; !ok && !isDir {
			out = append(out, rel)
		}
		return nil
	})
	return out, err
}

// fileDifference describes how the target file rel differs from its
// rendering: not a regular file, its permission bits, or its content.
// What cannot be read is said so, not failed on: the check has already
// found the difference.
func fileDifference(r *rendering, rel string, subs *safepath.Subdirs) resources.Difference {
	want := r.files[rel]
	dir, base, err := subs.Parent(rel)
	if err != nil {
		return resources.Differs(rel, "unreadable", "rendered")
	}
	st, err := dir.Stat(base)
	switch {
	case err != nil:
		return resources.Differs(rel, "unreadable", "rendered")
	case st.Mode&unix.S_IFMT != unix.S_IFREG:
		return resources.Differs(rel, "not a regular file", "regular file")
	case st.Mode&0o777 != want.perm:
		return resources.Differs(rel+" mode", fmt.Sprintf("%04o", st.Mode&0o777), fmt.Sprintf("%04o", want.perm))
	}
	have, err := readBounded(dir.Open(base, unix.O_RDONLY|unix.O_NONBLOCK))
	if err != nil {
		return resources.Differs(rel, "unreadable", "rendered")
	}
	rendered, err := readBounded(os.Open(r.path(rel)))
	if err != nil {
		return resources.Differs(rel, "unreadable", "rendered")
	}
	d := textdiff.Content(sha256.Sum256(have), sha256.Sum256(rendered), have, rendered)
	d.Property = rel
	if textdiff.Private(fs.FileMode(st.Mode), fs.FileMode(want.perm)) {
		d.Diff = ""
	}
	return d
}

// readBounded reads a file for comparison; beyond textdiff.MaxInput only
// the fact that it is too large matters, so the excess is not kept.
func readBounded[R io.ReadCloser](f R, err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, textdiff.MaxInput+1))
}
