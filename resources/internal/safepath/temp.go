package safepath

import (
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// maxTempBase bounds the part of a temporary name taken from the target's
// name, so the temporary name stays under NAME_MAX.
const maxTempBase = 200

// Temp is a temporary file in a directory, written and then renamed over
// the file it replaces, so readers see the old file or the new one.
type Temp struct {
	*File
	dir *Dir
	// tmp is the temporary name; base the name Commit replaces.
	tmp, base string
	// dev is the filesystem the file is on.
	dev uint64
}

// tempPrefix is how every temporary name for base begins.
func tempPrefix(base string) string {
	if len(base) > maxTempBase {
		base = base[:maxTempBase]
	}
	return "." + base + ".ccm-"
}

// CreateTemp creates an empty file named .BASE.ccm-DIGITS in d, mode 0600
// and owned by root, to replace base. It holds a lock on the file until
// Commit or Abort, so RemoveLeftovers never takes it for a leftover.
func (d *Dir) CreateTemp(base string) (*Temp, error) {
	// MultiReader of nothing: an empty content.
	t, _, err := d.WriteTemp(base, 0o600, io.MultiReader())
	return t, err
}

// WriteTemp is CreateTemp with the content of r, the file created with the
// permission bits perm (less the umask) rather than 0600. It returns the
// file's status once written, which the caller uses to set owner and mode
// only where they differ (SetAttrs). Owned by root until then, the file
// must be no more open than its final mode: perm gives group and others
// no more than the wanted mode does, and no write.
func (d *Dir) WriteTemp(base string, perm uint32, r io.Reader) (*Temp, unix.Stat_t, error) {
	for range maxRetries {
		t, err := d.createTemp(base, perm)
		if err != nil {
			return nil, unix.Stat_t{}, err
		}
		_, err = io.Copy(t, r)
		var st unix.Stat_t
		if err == nil {
			st, err = t.Stat()
		}
		if err != nil {
			return nil, unix.Stat_t{}, errors.Join(err, t.Abort())
		}
		if t.kept(&st) {
			return t, st, nil
		}
		// A sweep removed the file before the lock: what it holds is
		// written again, from it, under another name.
		r = io.NewSectionReader(t, 0, st.Size)
		defer t.File.Close()
	}
	return nil, unix.Stat_t{}, pathError("create", d.Join(tempPrefix(base)+"*"), errChanged)
}

// createTemp creates and locks a temporary file for base with mode perm.
func (d *Dir) createTemp(base string, perm uint32) (*Temp, error) {
	if err := single(base); err != nil {
		return nil, pathError("create", d.Join(base), err)
	}
	prefix := tempPrefix(base)
	for range 10000 {
		name := prefix + strconv.FormatUint(uint64(rand.Uint32()), 10)
		fd, err := unix.Openat(d.fd, name, unix.O_RDWR|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, perm)
		if errors.Is(err, unix.EEXIST) {
			continue
		}
		if err != nil {
			return nil, pathError("create", d.Join(name), err)
		}
		t := &Temp{File: &File{fd: fd, name: d.Join(name)}, dir: d, tmp: name, base: base}
		if err := unix.Flock(t.fd, unix.LOCK_EX); err != nil {
			return nil, errors.Join(pathError("flock", t.name, err), t.Abort())
		}
		return t, nil
	}
	return nil, pathError("create", d.Join(prefix+"*"), unix.EEXIST)
}

// kept reports whether the locked file st describes still has its name:
// a sweep (RemoveLeftovers in another process) may have removed it
// between its creation and the lock, leaving a link count of zero.
func (t *Temp) kept(st *unix.Stat_t) bool {
	t.dev = st.Dev
	return st.Nlink > 0
}

// SetAttrs gives the file the owner, group and permission bits that st,
// its status, shows it lacks, and nothing else: a file created by root
// with its final mode needs neither.
func (t *Temp) SetAttrs(st *unix.Stat_t, uid, gid int, mode uint32) error {
	if st.Uid != uint32(uid) || st.Gid != uint32(gid) {
		if err := t.Chown(uid, gid); err != nil {
			return err
		}
	}
	if st.Mode&0o7777 != mode {
		return t.Chmod(mode)
	}
	return nil
}

// Device identifies the filesystem the temporary file is on.
func (t *Temp) Device() uint64 { return t.dev }

// SyncFS writes everything written on the temporary file's filesystem to
// its device, this file included: a group commit's one sync for many
// files (syncfs(2), which reports write-back errors since Linux 5.8).
func (t *Temp) SyncFS() error {
	return pathError("syncfs", t.name, unix.Syncfs(t.fd))
}

// Settled reports an error writing the file's data back since it was
// created, without flushing the device: after a SyncFS it is what an
// fsync would report, at the cost of a system call. It is named fsync in
// errors, as the step it stands for.
func (t *Temp) Settled() error {
	const all = unix.SYNC_FILE_RANGE_WAIT_BEFORE | unix.SYNC_FILE_RANGE_WRITE | unix.SYNC_FILE_RANGE_WAIT_AFTER
	return pathError("fsync", t.name, unix.SyncFileRange(t.fd, 0, 0, all))
}

// Commit renames the temporary file over its base and closes it.
func (t *Temp) Commit() error {
	if err := t.dir.Rename(t.tmp, t.base); err != nil {
		return errors.Join(err, t.Abort())
	}
	return t.File.Close()
}

// CommitStamped is Commit that also returns the file's stamp as it
// stands renamed, for a later look to tell that it is still the file
// written (Stamp.Same). written is the file's status after its content was
// written, before anything could open it by its new name: the stamp is
// valid only when nothing wrote to the file since (its modification time
// and size are still those).
func (t *Temp) CommitStamped(written *unix.Stat_t) (Stamp, bool, error) {
	if err := t.dir.Rename(t.tmp, t.base); err != nil {
		return Stamp{}, false, errors.Join(err, t.Abort())
	}
	st, err := t.Stat()
	if err != nil {
		return Stamp{}, false, errors.Join(err, t.File.Close())
	}
	ok := st.Mtim == written.Mtim && st.Size == written.Size && finerStamps(t.fd)
	return stampOf(&st), ok, t.File.Close()
}

// Reopen returns a second, read-only descriptor of the temporary file,
// for a program to read (a validate command): it names the file itself,
// whatever happens to its name meanwhile.
func (t *Temp) Reopen() (*os.File, error) {
	fd, err := unix.Open("/proc/self/fd/"+strconv.Itoa(t.fd), unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, pathError("reopen", t.name, err)
	}
	return os.NewFile(uintptr(fd), t.name), nil
}

// Abort removes the temporary file and closes it.
func (t *Temp) Abort() error {
	err := t.dir.Unlink(t.tmp)
	if errors.Is(err, unix.ENOENT) {
		err = nil
	}
	return errors.Join(err, t.File.Close())
}

// CreatePerm is the mode a temporary file for a file of mode is created
// with (WriteTemp's perm): while root owns it, before the owner and mode
// it lacks are set, it must give no one access the final file does not,
// whatever its group (a setgid directory's). So group and others may read
// and execute only what others may in the end, and no one but root may
// write. Mode 0644 and 0755 need no chmod then.
func CreatePerm(mode uint32) uint32 {
	others := mode & 0o005
	return mode&0o700 | others | others<<3&mode
}
