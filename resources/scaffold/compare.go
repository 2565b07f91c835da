package scaffold

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/textdiff"
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

// compare classifies every rendered file against the target. It reads and
// never writes.
func (s *scaffold) compare(r *rendering) (state, error) {
	var st state
	for _, rel := range r.sorted() {
		c, err := compareFile(r.path(rel), r.files[rel], filepath.Join(s.target, rel))
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
	st.purged, err = s.strays(r)
	return st, err
}

// comparison is how one target file compares with its rendering.
type comparison int

const (
	equal comparison = iota
	missing
	differs
)

// compareFile compares the target file with the rendered one: content and
// permission bits.
func compareFile(rendered string, want fs.FileInfo, target string) (comparison, error) {
	fi, err := os.Lstat(target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return missing, nil
	case err != nil:
		return differs, err
	case fi.IsDir():
		return differs, fmt.Errorf("%s is a directory where the scaffold renders a file; remove it", target)
	case !fi.Mode().IsRegular() || fi.Mode().Perm() != want.Mode().Perm() || fi.Size() != want.Size():
		return differs, nil
	}
	// Scaffolds render configuration: files small enough to compare whole.
	a, err := os.ReadFile(rendered)
	if err != nil {
		return differs, err
	}
	b, err := os.ReadFile(target)
	if err != nil {
		return differs, err
	}
	if bytes.Equal(a, b) {
		return equal, nil
	}
	return differs, nil
}

// strays lists the target's files that the rendering does not produce.
func (s *scaffold) strays(r *rendering) ([]string, error) {
	var out []string
	// The trailing slash follows a target that is a symbolic link to a
	// directory, as every other operation on the target does.
	root := s.target + string(filepath.Separator)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil // no target yet, or a file removed while walking
		}
		if err != nil || path == root || d.IsDir() {
			return err
		}
		rel := strings.TrimPrefix(path, root)
		if _, ok := r.files[rel]; !ok {
			out = append(out, rel)
		}
		return nil
	})
	return out, err
}

// fileDifference describes how the target file differs from its
// rendering: not a regular file, its permission bits, or its content.
// Reading either side failing leaves only what is known.
func fileDifference(rel, rendered, target string) resources.Difference {
	want, err := os.Lstat(rendered)
	if err != nil {
		return resources.Differs(rel, "unreadable", "rendered")
	}
	have, err := os.Lstat(target)
	switch {
	case err != nil:
		return resources.Differs(rel, "unreadable", "rendered")
	case !have.Mode().IsRegular():
		return resources.Differs(rel, have.Mode().Type().String(), "regular file")
	case have.Mode().Perm() != want.Mode().Perm():
		return resources.Differs(rel+" mode", fmt.Sprintf("%04o", have.Mode().Perm()), fmt.Sprintf("%04o", want.Mode().Perm()))
	}
	a, errA := readBounded(target)
	b, errB := readBounded(rendered)
	if errA != nil || errB != nil {
		return resources.Differs(rel, "unreadable", "rendered")
	}
	d := textdiff.Content(sha256.Sum256(a), sha256.Sum256(b), a, b)
	d.Property = rel
	return d
}

// readBounded reads a file for comparison; beyond textdiff.MaxInput only
// its digest matters, so the excess is not kept.
func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, textdiff.MaxInput+1))
}
