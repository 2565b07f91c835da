package safepath

import (
	"errors"
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
	if err := single(base); err != nil {
		return nil, pathError("create", d.Join(base), err)
	}
	prefix := tempPrefix(base)
	for range 10000 {
		name := prefix + strconv.FormatUint(uint64(rand.Uint32()), 10)
		fd, err := unix.Openat(d.fd, name, unix.O_RDWR|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
		if errors.Is(err, unix.EEXIST) {
			continue
		}
		if err != nil {
			return nil, pathError("create", d.Join(name), err)
		}
		t := &Temp{File: &File{fd: fd, name: d.Join(name)}, dir: d, tmp: name, base: base}
		ok, err := t.lock()
		if err != nil || ok {
			return t, err
		}
	}
	return nil, pathError("create", d.Join(prefix+"*"), unix.EEXIST)
}

// lock takes the file's lock. It reports false when a sweep removed the
// file between its creation and the lock (its link count is then zero);
// the caller tries another name.
func (t *Temp) lock() (bool, error) {
	if err := unix.Flock(t.fd, unix.LOCK_EX); err != nil {
		return false, errors.Join(pathError("flock", t.name, err), t.Abort())
	}
	st, err := t.Stat()
	if err != nil {
		return false, errors.Join(err, t.Abort())
	}
	if st.Nlink == 0 {
		return false, t.File.Close()
	}
	t.dev = st.Dev
	return true, nil
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
