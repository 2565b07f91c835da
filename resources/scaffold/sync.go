package scaffold

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
)

// write creates the target and the rendered directories, and installs
// every added and updated file.
func (s *scaffold) write(st state, r *rendering) error {
	for _, d := range append([]string{"."}, r.dirs...) {
		if err := os.MkdirAll(filepath.Join(s.target, d), 0o755); err != nil {
			return err
		}
	}
	for _, rel := range slices.Concat(st.added, st.updated) {
		if err := install(r.path(rel), filepath.Join(s.target, rel), r.files[rel].Mode().Perm()); err != nil {
			return fmt.Errorf("writing %s: %w", filepath.Join(s.target, rel), err)
		}
	}
	return nil
}

// install copies src to dst atomically: a synced temporary file in dst's
// directory, renamed over dst.
func install(src, dst string, perm fs.FileMode) (err error) {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".ccm-scaffold-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			if rerr := os.Remove(tmp.Name()); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
				err = errors.Join(err, rerr)
			}
		}
	}()
	_, err = io.Copy(tmp, in)
	if err == nil {
		err = tmp.Chmod(perm)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), dst)
}

// purge deletes the files the templates do not produce.
func (s *scaffold) purge(rels []string) error {
	var errs []error
	for _, rel := range rels {
		if err := os.Remove(filepath.Join(s.target, rel)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// remove deletes the rendered files, then the rendered directories that
// are left empty, deepest first, then the target if it is empty. Files the
// scaffold does not render are never touched, and keep their directories.
// A failure does not stop the rest; every failure is returned.
func (s *scaffold) remove(files, dirs []string) error {
	var errs []error
	for _, rel := range files {
		if err := os.Remove(filepath.Join(s.target, rel)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	// dirs lists parents before children; backwards, children come first.
	for _, d := range slices.Backward(append([]string{"."}, dirs...)) {
		if err := removeIfEmpty(filepath.Join(s.target, d)); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// removeIfEmpty removes an empty directory; a directory that is not empty,
// or not there, is left alone without error.
func removeIfEmpty(dir string) error {
	err := os.Remove(dir)
	if err == nil || errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTEMPTY) || errors.Is(err, syscall.EEXIST) {
		return nil
	}
	return err
}
