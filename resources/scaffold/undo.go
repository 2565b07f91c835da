package scaffold

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	"golang.org/x/sys/unix"
)

// maxSaved bounds what one scaffold keeps for a rollback, all its files
// together: configuration, not data.
const maxSaved = 16 << 20

var _ resources.Undoable = (*scaffold)(nil)

// saved is what an apply is about to change, as it is now.
type saved struct {
	// Target is set when the target directory exists.
	Target bool `json:"target"`
	// Files are the files the apply writes, purges or removes, by path
	// relative to the target, sorted.
	Files []savedFile `json:"files,omitempty"`
	// Dirs are the rendered directories the apply creates, relative to
	// the target, parents first.
	Dirs []string `json:"dirs,omitempty"`
	// Purge is set when the target held no file but Files: any other is
	// a stray, removed by Restore.
	Purge bool `json:"purge,omitempty"`
}

// savedFile is one file as it was: absent, or its content and attributes.
type savedFile struct {
	Path    string `json:"path"`
	Absent  bool   `json:"absent,omitempty"`
	Content []byte `json:"content,omitempty"`
	UID     int    `json:"uid"`
	GID     int    `json:"gid"`
	// Mode holds the permission bits, setuid, setgid and sticky included.
	Mode uint32 `json:"mode"`
}

// Save keeps the scaffold's part of the target as it is now: every
// rendered file, the ones the apply would add (as absent), update, leave
// or, with ensure: absent, remove, the strays purge would delete, and the
// directories the apply would create. So Restore can both undo the apply
// and, while a rollback holds the scaffold at this state, repair drift
// towards it. The target is reached as Apply reaches it; nothing is
// written.
func (s *scaffold) Save(ctx context.Context) (_ []byte, err error) {
	v, err := s.observe(ctx)
	defer v.close(&err)
	if err != nil {
		return nil, err
	}
	k := saved{Target: v.target != nil}
	switch {
	case v.r == nil:
		// ensure: absent, and no target: nothing to change.
		return json.Marshal(k)
	case v.target == nil:
		k.Dirs, k.Files, k.Purge = v.r.dirs, absentFiles(v.st.added), s.p.Purge
		return json.Marshal(k)
	}
	subs := v.target.Subdirs()
	defer subs.Close()
	if err := k.keep(v, subs, s.p.Ensure == ensureAbsent, s.p.Purge); err != nil {
		return nil, err
	}
	return json.Marshal(k)
}

// keep fills k with the scaffold's files below the existing target.
func (k *saved) keep(v *view, subs *safepath.Subdirs, absent, purge bool) error {
	kept := managed(v.st)
	if !absent {
		kept = slices.Concat(kept, v.st.purged)
		k.Files, k.Purge = absentFiles(v.st.added), purge
		dirs, err := missingDirs(v.r.dirs, subs)
		if err != nil {
			return err
		}
		k.Dirs = dirs
	}
	budget := int64(maxSaved)
	for _, rel := range kept {
		f, err := keepFile(subs, rel, &budget)
		if err != nil {
			return err
		}
		k.Files = append(k.Files, f)
	}
	slices.SortFunc(k.Files, func(a, b savedFile) int { return cmp.Compare(a.Path, b.Path) })
	return nil
}

func absentFile(rel string) savedFile { return savedFile{Path: rel, Absent: true} }

// absentFiles keeps paths as files that are not there.
func absentFiles(paths []string) []savedFile {
	out := make([]savedFile, len(paths))
	for i, p := range paths {
		out[i] = absentFile(p)
	}
	return out
}

// missingDirs lists the rendered directories the target does not have.
func missingDirs(dirs []string, subs *safepath.Subdirs) ([]string, error) {
	var out []string
	for _, d := range dirs {
		dir, base, err := subs.Parent(d)
		if err == nil {
			_, err = dir.Stat(base)
		}
		switch {
		case errors.Is(err, unix.ENOENT):
			out = append(out, d)
		case err != nil:
			return nil, err
		}
	}
	return out, nil
}

// keepFile reads the target file rel, a regular file, taking its size
// from budget.
func keepFile(subs *safepath.Subdirs, rel string, budget *int64) (savedFile, error) {
	dir, base, err := subs.Parent(rel)
	if err != nil {
		return savedFile{}, err
	}
	st, err := dir.Stat(base)
	switch {
	case errors.Is(err, unix.ENOENT):
		return absentFile(rel), nil
	case err != nil:
		return savedFile{}, err
	case st.Mode&unix.S_IFMT != unix.S_IFREG:
		return savedFile{}, fmt.Errorf("%s is not a regular file: %w", dir.Join(base), ErrNotUndoable)
	}
	fh, err := dir.Open(base, unix.O_RDONLY|unix.O_NONBLOCK)
	if err != nil {
		return savedFile{}, err
	}
	defer fh.Close()
	// The open file is the one to keep, whatever was at the name before.
	if st, err = fh.Stat(); err != nil {
		return savedFile{}, err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return savedFile{}, fmt.Errorf("%s is not a regular file: %w", dir.Join(base), ErrNotUndoable)
	}
	b, err := io.ReadAll(io.LimitReader(fh, *budget+1))
	if err != nil {
		return savedFile{}, err
	}
	if *budget -= int64(len(b)); *budget < 0 {
		return savedFile{}, fmt.Errorf("the files to keep are larger than %d MiB: %w", maxSaved>>20, ErrNotUndoable)
	}
	return savedFile{Path: rel, Content: b, UID: int(st.Uid), GID: int(st.Gid), Mode: st.Mode & 0o7777}, nil
}

// Restore puts back what Save kept wherever the target differs from it:
// files written back with their content, owner, group and mode (their
// directories made again when missing), files the change added removed,
// and the directories it created removed when empty. Everything is done
// relative to the target's descriptor, as Apply does.
func (s *scaffold) Restore(_ context.Context, data []byte) (_ bool, err error) {
	var k saved
	if err := json.Unmarshal(data, &k); err != nil {
		return false, fmt.Errorf("reading the state kept for %s: %w", s.target, err)
	}
	target, err := s.openTarget()
	if err != nil {
		return false, err
	}
	created := false
	if target == nil && k.hasFiles() {
		if target, err = s.links.MkdirAll(s.target, 0o755); err != nil {
			return false, err
		}
		created = true
	}
	defer func() { err = errors.Join(err, target.Close()) }()
	changed, err := k.restoreFiles(target)
	if err != nil || target == nil {
		return changed || created, err
	}
	purged, err := k.purge(target)
	if err != nil {
		return true, err
	}
	removed, err := s.removeMade(target, k)
	return changed || created || purged || removed, err
}

// purge removes the files below target that k does not hold, when the
// target held none.
func (k saved) purge(target *safepath.Dir) (bool, error) {
	if !k.Purge {
		return false, nil
	}
	keep := map[string]bool{}
	for _, f := range k.Files {
		keep[f.Path] = !f.Absent
	}
	var extra []string
	err := target.Walk(func(_ *safepath.Dir, _, rel string, isDir bool) error {
		if !isDir && !keep[rel] {
			extra = append(extra, rel)
		}
		return nil
	})
	if err != nil || len(extra) == 0 {
		return false, err
	}
	subs := target.Subdirs()
	defer subs.Close()
	var errs []error
	for _, rel := range extra {
		errs = append(errs, unlink(subs, rel))
	}
	return true, errors.Join(errs...)
}

// hasFiles reports whether any kept file existed.
func (k saved) hasFiles() bool {
	return slices.ContainsFunc(k.Files, func(f savedFile) bool { return !f.Absent })
}

// restoreFiles puts each kept file back below target (nil when missing).
func (k saved) restoreFiles(target *safepath.Dir) (bool, error) {
	if target == nil {
		return false, nil
	}
	subs := target.Subdirs()
	defer subs.Close()
	changed := false
	var errs []error
	for _, f := range k.Files {
		c, err := f.restore(target, subs)
		changed = changed || c
		errs = append(errs, err)
	}
	return changed, errors.Join(errs...)
}

// restore makes the target file as f says, reporting whether it changed.
func (f savedFile) restore(target *safepath.Dir, subs *safepath.Subdirs) (bool, error) {
	dir, base, err := subs.Parent(f.Path)
	if f.Absent {
		if err == nil {
			err = dir.Unlink(base)
		}
		if errors.Is(err, unix.ENOENT) {
			return false, nil
		}
		return err == nil, err
	}
	if errors.Is(err, unix.ENOENT) {
		dir, base, err = makeParent(target, subs, f.Path)
	}
	if err != nil {
		return false, err
	}
	if same, err := f.matches(dir, base); err != nil || same {
		return false, err
	}
	return true, writeAtomic(dir, base, bytes.NewReader(f.Content), f.Mode, &owner{uid: f.UID, gid: f.GID})
}

// makeParent makes the missing directories of rel below target (0755):
// ensure: absent removed them with their last file.
func makeParent(target *safepath.Dir, subs *safepath.Subdirs, rel string) (*safepath.Dir, string, error) {
	made, err := target.MkdirAll(path.Dir(rel), 0o755)
	if err != nil {
		return nil, "", err
	}
	if err := made.Close(); err != nil {
		return nil, "", err
	}
	return subs.Parent(rel)
}

// matches reports whether base in dir is the kept file.
func (f savedFile) matches(dir *safepath.Dir, base string) (bool, error) {
	st, err := dir.Stat(base)
	switch {
	case errors.Is(err, unix.ENOENT):
		return false, nil
	case err != nil:
		return false, err
	case st.Mode&unix.S_IFMT != unix.S_IFREG || st.Mode&0o7777 != f.Mode || int(st.Uid) != f.UID || int(st.Gid) != f.GID || st.Size != int64(len(f.Content)):
		return false, nil
	}
	return holds(dir, base, f.Content)
}

// removeMade removes the directories the change created, deepest first,
// then the target when it was not there before; only empty ones go.
func (s *scaffold) removeMade(target *safepath.Dir, k saved) (bool, error) {
	subs := target.Subdirs()
	defer subs.Close()
	removed := false
	var errs []error
	for _, d := range slices.Backward(k.Dirs) {
		dir, base, err := subs.Parent(d)
		if err == nil {
			err = dir.Rmdir(base)
		}
		removed = removed || err == nil
		errs = append(errs, emptyOrGone(err))
	}
	if !k.Target {
		parent, base, err := s.links.OpenParent(s.target)
		if err == nil {
			err = parent.Rmdir(base)
			removed = removed || err == nil
			errs = append(errs, parent.Close())
		}
		errs = append(errs, emptyOrGone(err))
	}
	return removed, errors.Join(errs...)
}
