package safepath

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Dir is an open directory reached by a safe walk. Its methods act on
// names inside it, relative to its descriptor, and never follow a symlink
// at that name. A Dir is not safe for concurrent Close.
type Dir struct {
	fd int
	// path is where the walk found the directory, for messages; after a
	// rename it may no longer lead there, which is the point.
	path string
}

// OpenDir opens the directory at path (absolute), following only trusted
// or allowed symlinks on the way, the last component included.
func (p Policy) OpenDir(path string) (*Dir, error) {
	fd, err := p.open(path, dirFlags, false, 0)
	if err != nil {
		return nil, err
	}
	return &Dir{fd: fd, path: path}, nil
}

// OpenParent opens the directory that holds path (absolute, not /) and
// returns it with path's last component, the name to act on.
func (p Policy) OpenParent(path string) (*Dir, string, error) {
	i := strings.LastIndexByte(path, '/')
	if i < 0 || i == len(path)-1 {
		return nil, "", pathError("open", path, ErrBadName)
	}
	d, err := p.OpenDir(parentOf(path))
	return d, path[i+1:], err
}

// parentOf returns the directory part of path, which has a slash.
func parentOf(path string) string {
	i := strings.LastIndexByte(path, '/')
	if i <= 0 {
		return "/"
	}
	return path[:i]
}

// MkdirAll opens the directory at path, first creating it and any missing
// parent with mode (less the umask).
func (p Policy) MkdirAll(path string, mode uint32) (*Dir, error) {
	fd, err := p.open(path, dirFlags, true, mode)
	if err != nil {
		return nil, err
	}
	return &Dir{fd: fd, path: path}, nil
}

// OpenDir opens the directory rel (one or more components) below d,
// following no symlink at all.
func (d *Dir) OpenDir(rel string) (*Dir, error) {
	fd, err := d.openBeneath(rel, dirFlags, false, 0)
	if err != nil {
		return nil, err
	}
	return &Dir{fd: fd, path: d.Join(rel)}, nil
}

// MkdirAll opens the directory rel below d, first creating it and any
// missing parent below d with mode; it follows no symlink.
func (d *Dir) MkdirAll(rel string, mode uint32) (*Dir, error) {
	fd, err := d.openBeneath(rel, dirFlags, true, mode)
	if err != nil {
		return nil, err
	}
	return &Dir{fd: fd, path: d.Join(rel)}, nil
}

// Exists reports whether anything, a symlink included, is at path
// (absolute): the way to it is walked under p, the last component is not
// followed. A missing directory on the way means no.
func (p Policy) Exists(path string) (bool, error) {
	if path == "/" {
		// The root has no parent to look in; it always exists.
		return true, nil
	}
	_, _, err := p.Stat(path, false)
	if errors.Is(err, unix.ENOENT) {
		return false, nil
	}
	return err == nil, err
}

// FdPath returns a path that reaches the open directory itself rather
// than by name: the working directory of a child process (its chdir runs
// before exec closes this descriptor in the child). It needs /proc.
func (d *Dir) FdPath() string { return "/proc/self/fd/" + strconv.Itoa(d.fd) }

// Path is the path the directory was opened at.
func (d *Dir) Path() string { return d.path }

// Join returns the path of name in d, for messages.
func (d *Dir) Join(name string) string {
	if name == "." || name == "" {
		return d.path
	}
	return join(d.path, name)
}

// Close releases the directory.
func (d *Dir) Close() error {
	if d == nil || d.fd < 0 {
		return nil
	}
	err := unix.Close(d.fd)
	d.fd = -1
	return err
}

// Stat returns the status of name itself: a symlink is not followed.
func (d *Dir) Stat(name string) (unix.Stat_t, error) {
	var st unix.Stat_t
	err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
	return st, pathError("lstat", d.Join(name), err)
}

// Self returns the status of the directory itself.
func (d *Dir) Self() (unix.Stat_t, error) {
	var st unix.Stat_t
	err := unix.Fstat(d.fd, &st)
	return st, pathError("stat", d.path, err)
}

// Open opens name with flags (O_RDONLY, O_WRONLY...), never following a
// symlink there; O_NONBLOCK keeps a FIFO from blocking the open.
func (d *Dir) Open(name string, flags int) (*File, error) {
	if err := single(name); err != nil {
		return nil, pathError("open", d.Join(name), err)
	}
	fd, err := unix.Openat(d.fd, name, flags|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NOCTTY, 0)
	if err != nil {
		return nil, pathError("open", d.Join(name), err)
	}
	return &File{fd: fd, name: d.Join(name)}, nil
}

// Mkdir creates the directory name with mode (less the umask).
func (d *Dir) Mkdir(name string, mode uint32) error {
	return pathError("mkdir", d.Join(name), unix.Mkdirat(d.fd, name, mode))
}

// Unlink removes name, which is not a directory; a symlink is removed,
// not what it points to.
func (d *Dir) Unlink(name string) error {
	return pathError("unlink", d.Join(name), unix.Unlinkat(d.fd, name, 0))
}

// Rmdir removes the empty directory name.
func (d *Dir) Rmdir(name string) error {
	return pathError("rmdir", d.Join(name), unix.Unlinkat(d.fd, name, unix.AT_REMOVEDIR))
}

// Rename renames from to to, both in d, replacing to atomically.
func (d *Dir) Rename(from, to string) error {
	if err := errors.Join(single(from), single(to)); err != nil {
		return pathError("rename", d.Join(from), err)
	}
	return pathError("rename", d.Join(to), unix.Renameat(d.fd, from, d.fd, to))
}

// Readlink returns the target of the symlink name.
func (d *Dir) Readlink(name string) (string, error) {
	target, err := readlinkat(d.fd, name)
	return target, pathError("readlink", d.Join(name), err)
}

// SetAttrs sets the owner, group and mode of name, a regular file or a
// directory, through a descriptor: a symlink renamed over name between a
// check and this call makes it fail, never changes the link's target. A
// regular file with other hard links is refused when someone other than
// root can add names to d, since one of those names may be the link.
func (d *Dir) SetAttrs(name string, uid, gid int, mode uint32) error {
	f, err := d.Open(name, unix.O_RDONLY|unix.O_NONBLOCK)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
	case unix.S_IFREG:
		if st.Nlink > 1 {
			if err := d.refuseHardLinks(name, uint64(st.Nlink)); err != nil {
				return err
			}
		}
	default:
		return pathError("chmod", f.name, errors.New("not a regular file or directory"))
	}
	if err := unix.Fchown(f.fd, uid, gid); err != nil {
		return pathError("chown", f.name, err)
	}
	return pathError("chmod", f.name, unix.Fchmod(f.fd, mode))
}

func (d *Dir) refuseHardLinks(name string, n uint64) error {
	self, err := d.Self()
	if err != nil || !writableByOthers(&self) {
		return err
	}
	return pathError("chmod", d.Join(name), fmt.Errorf("%w: %d names share it; remove the others first", ErrHardLinked, n))
}

// single checks that name is one path component.
func single(name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsRune(name, '/') {
		return ErrBadName
	}
	return nil
}

// SetLinkOwner gives the symlink name, itself, to uid and gid; anything
// else at name is refused, so a name swapped for another kind of file
// between a look and this call changes nothing.
func (d *Dir) SetLinkOwner(name string, uid, gid int) error {
	if err := single(name); err != nil {
		return pathError("chown", d.Join(name), err)
	}
	fd, err := unix.Openat(d.fd, name, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return pathError("open", d.Join(name), err)
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return pathError("stat", d.Join(name), err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFLNK {
		return pathError("chown", d.Join(name), errors.New("not a symlink"))
	}
	return pathError("chown", d.Join(name), unix.Fchownat(fd, "", uid, gid, unix.AT_EMPTY_PATH|unix.AT_SYMLINK_NOFOLLOW))
}
