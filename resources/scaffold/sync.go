package scaffold

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	"golang.org/x/sys/unix"
)

// write creates the target and the rendered directories, and installs
// every added and updated file, relative to the target's descriptor:
// nothing below the target is reached through a symlink.
func (s *scaffold) write(v *view) error {
	if v.target == nil {
		var err error
		if v.target, err = s.links.MkdirAll(s.target, 0o755); err != nil {
			return err
		}
	}
	for _, d := range v.r.dirs {
		sub, err := v.target.MkdirAll(d, 0o755)
		if err != nil {
			return err
		}
		if err := sub.Close(); err != nil {
			return err
		}
	}
	subs := v.target.Subdirs()
	defer subs.Close()
	for _, rel := range slices.Concat(v.st.added, v.st.updated) {
		if err := install(v.r, rel, subs); err != nil {
			return fmt.Errorf("writing %s: %w", filepath.Join(s.target, rel), err)
		}
	}
	return nil
}

// install copies the rendering of rel into the target atomically: a
// synced temporary file beside it, renamed over it.
func install(r *rendering, rel string, subs *safepath.Subdirs) error {
	dir, base, err := subs.Parent(rel)
	if err != nil {
		return err
	}
	in, err := os.Open(r.path(rel))
	if err != nil {
		return err
	}
	defer in.Close()
	return writeAtomic(dir, base, in, r.files[rel].perm, nil)
}

// owner is a file's owner and group.
type owner struct{ uid, gid int }

// writeAtomic replaces base in dir with content: a synced temporary file
// beside it, given perm (and own's owner and group, when set; otherwise
// ccm's), renamed over it. Readers see the old file or the new one.
func writeAtomic(dir *safepath.Dir, base string, content io.Reader, perm uint32, own *owner) error {
	tmp, err := dir.CreateTemp(base)
	if err != nil {
		return err
	}
	_, err = io.Copy(tmp, content)
	if err == nil && own != nil {
		// Before the mode: a chown may clear setuid and setgid bits.
		err = tmp.Chown(own.uid, own.gid)
	}
	if err == nil {
		err = tmp.Chmod(perm)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if err != nil {
		return errors.Join(err, tmp.Abort())
	}
	return tmp.Commit()
}

// purge deletes the files the templates do not produce; a symlink is
// removed itself.
func (s *scaffold) purge(target *safepath.Dir, rels []string) error {
	subs := target.Subdirs()
	defer subs.Close()
	var errs []error
	for _, rel := range rels {
		errs = append(errs, unlink(subs, rel))
	}
	return errors.Join(errs...)
}

// remove deletes the rendered files, then the rendered directories that
// are left empty, deepest first, then the target if it is empty. Files the
// scaffold does not render are never touched, and keep their directories.
// A failure does not stop the rest; every failure is returned.
func (s *scaffold) remove(target *safepath.Dir, files, dirs []string) error {
	subs := target.Subdirs()
	defer subs.Close()
	var errs []error
	for _, rel := range files {
		errs = append(errs, unlink(subs, rel))
	}
	// dirs lists parents before children; backwards, children come first.
	for _, d := range slices.Backward(dirs) {
		dir, base, err := subs.Parent(d)
		if err == nil {
			err = dir.Rmdir(base)
		}
		errs = append(errs, emptyOrGone(err))
	}
	parent, base, err := s.links.OpenParent(s.target)
	if err == nil {
		err = parent.Rmdir(base)
		errs = append(errs, parent.Close())
	}
	errs = append(errs, emptyOrGone(err))
	return errors.Join(errs...)
}

// unlink removes rel below the target; one already gone is no error.
func unlink(subs *safepath.Subdirs, rel string) error {
	dir, base, err := subs.Parent(rel)
	if err == nil {
		err = dir.Unlink(base)
	}
	if errors.Is(err, unix.ENOENT) {
		return nil
	}
	return err
}

// emptyOrGone drops the errors of removing a directory that is not empty,
// or not there: such a directory is left alone.
func emptyOrGone(err error) error {
	if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTEMPTY) || errors.Is(err, unix.EEXIST) {
		return nil
	}
	return err
}
