package safepath

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

var (
	// errReplaced is a stage swapped for another directory as it was made.
	errReplaced = errors.New("replaced while being made")
	// errDirInTheWay is a directory where a stage has a file.
	errDirInTheWay = errors.New("a directory is in the way of a file")
)

// stagePrefix begins the name of every stage directory.
const stagePrefix = ".ccm-stage-"

// Stage is a private directory inside a Dir for a tool that writes by
// path (tar, unzip) to fill: owned by ccm's user (root), mode 0700, so no one else can
// plant a link in it, then moved into its Dir by MoveIn. Its descriptor is
// locked while it lives, so a later MkdirStage never takes it for a
// leftover.
type Stage struct {
	*Dir
	parent *Dir
	// name is the stage's name in parent, for its removal.
	name string
}

// MkdirStage creates a stage in d, first removing the stages a killed
// process left there. d must stay open until the stage is removed.
func (d *Dir) MkdirStage() (*Stage, error) {
	d.removeStaleStages()
	for range 10000 {
		name := stagePrefix + strconv.FormatUint(uint64(rand.Uint32()), 10)
		err := unix.Mkdirat(d.fd, name, 0o700)
		if errors.Is(err, unix.EEXIST) {
			continue
		}
		if err != nil {
			return nil, pathError("mkdir", d.Join(name), err)
		}
		return d.openStage(name)
	}
	return nil, pathError("mkdir", d.Join(stagePrefix+"*"), unix.EEXIST)
}

// openStage opens and locks the stage just made at name, and checks it is
// still that one: in a directory others can write, the name may have been
// swapped for another directory meanwhile, which is refused unless it is
// an empty one only root can write.
func (d *Dir) openStage(name string) (*Stage, error) {
	fd, err := unix.Openat(d.fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, pathError("open", d.Join(name), err)
	}
	s := &Stage{Dir: &Dir{fd: fd, path: d.Join(name)}, parent: d, name: name}
	if err := unix.Flock(fd, unix.LOCK_EX); err != nil {
		return nil, errors.Join(pathError("flock", s.path, err), s.Dir.Close())
	}
	st, err := s.Self()
	if err == nil && (st.Uid != uint32(unix.Geteuid()) || st.Mode&0o7777 != 0o700) {
		err = pathError("mkdir", s.path, errReplaced)
	}
	if err == nil {
		var ents []entry
		if ents, err = s.entries(); err == nil && len(ents) > 0 {
			err = pathError("mkdir", s.path, errReplaced)
		}
	}
	if err != nil {
		return nil, errors.Join(err, s.Dir.Close())
	}
	return s, nil
}

// removeStaleStages removes the stages in d that no live process holds.
// Cleaning up is never a reason to fail.
func (d *Dir) removeStaleStages() {
	ents, err := d.entries()
	if err != nil {
		return
	}
	for _, e := range ents {
		if !strings.HasPrefix(e.name, stagePrefix) {
			continue
		}
		fd, err := unix.Openat(d.fd, e.name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			continue
		}
		s := &Stage{Dir: &Dir{fd: fd, path: d.Join(e.name)}, parent: d, name: e.name}
		st, err := s.Self()
		if err != nil || st.Uid != uint32(unix.Geteuid()) || unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB) != nil {
			s.Dir.Close()
			continue
		}
		_ = s.Remove()
	}
}

// Remove removes what is left in the stage, through its descriptor, then
// the stage's name if it still names an empty directory, and closes it.
func (s *Stage) Remove() error {
	errs := []error{s.removeEntries(1)}
	err := unix.Unlinkat(s.parent.fd, s.name, unix.AT_REMOVEDIR)
	if err != nil && !errors.Is(err, unix.ENOENT) && !errors.Is(err, unix.ENOTDIR) && !errors.Is(err, unix.ENOTEMPTY) {
		errs = append(errs, pathError("rmdir", s.path, err))
	}
	return errors.Join(append(errs, s.Dir.Close())...)
}

// MoveIn moves everything in the stage into its Dir, by rename from
// descriptor to descriptor: a name the stage holds replaces a file or
// symlink of that name, and a directory is merged into a directory that
// is already there (whose owner and mode stay). No symlink in the Dir is
// followed and no mount point is entered, whoever swaps what meanwhile. A
// directory where the stage has a file, or a mount point where it has a
// directory, is an error; what was moved stays.
func (s *Stage) MoveIn() error {
	return s.parent.merge(s.Dir, 0)
}

// merge moves the entries of src into d.
func (d *Dir) merge(src *Dir, depth int) error {
	if depth >= MaxDepth {
		return pathError("rename", d.path, fmt.Errorf("%w: more than %d levels", ErrTooDeep, MaxDepth))
	}
	ents, err := src.entries()
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range ents {
		errs = append(errs, d.moveIn(src, e.name, depth))
	}
	return errors.Join(errs...)
}

// moveIn moves name from src into d, looking again when someone changed
// d's entry between the look and the move.
func (d *Dir) moveIn(src *Dir, name string, depth int) error {
	for try := 0; ; try++ {
		err := d.moveOnce(src, name, depth)
		if !errors.Is(err, errChanged) {
			return err
		}
		if try == maxRetries {
			return pathError("rename", d.Join(name), err)
		}
	}
}

func (d *Dir) moveOnce(src *Dir, name string, depth int) error {
	from, err := src.Stat(name)
	if err != nil {
		return err
	}
	to, err := d.Stat(name)
	switch {
	case errors.Is(err, unix.ENOENT):
		return d.renameNew(src, name)
	case err != nil:
		return err
	case isDir(&from) && isDir(&to):
		return d.mergeDir(src, name, depth)
	case isDir(&from):
		// Unlinking a file or link from d is no more than anyone who can
		// write d can do; a directory swapped in meanwhile makes it fail.
		err := unix.Unlinkat(d.fd, name, 0)
		if errors.Is(err, unix.EISDIR) || errors.Is(err, unix.ENOENT) {
			return errChanged
		}
		if err != nil {
			return pathError("unlink", d.Join(name), err)
		}
		return d.renameNew(src, name)
	}
	err = unix.Renameat(src.fd, name, d.fd, name)
	if errors.Is(err, unix.EISDIR) || errors.Is(err, unix.ENOTEMPTY) || errors.Is(err, unix.EEXIST) {
		return pathError("rename", d.Join(name), errDirInTheWay)
	}
	return pathError("rename", d.Join(name), err)
}

// renameNew moves name from src to d, where nothing has that name.
func (d *Dir) renameNew(src *Dir, name string) error {
	err := unix.Renameat2(src.fd, name, d.fd, name, unix.RENAME_NOREPLACE)
	if errors.Is(err, unix.EEXIST) {
		return errChanged
	}
	return pathError("rename", d.Join(name), err)
}

// mergeDir merges the directory name of src into the directory name of
// d, opened without following a link or entering a mount point.
func (d *Dir) mergeDir(src *Dir, name string, depth int) error {
	to, err := d.child(name)
	if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) || errors.Is(err, unix.ENOENT) {
		return errChanged
	}
	if err != nil {
		return err
	}
	defer to.Close()
	from, err := src.child(name)
	if err != nil {
		return err
	}
	defer from.Close()
	return to.merge(from, depth+1)
}

func isDir(st *unix.Stat_t) bool { return st.Mode&unix.S_IFMT == unix.S_IFDIR }
