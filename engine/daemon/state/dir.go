package state

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/reactive-ccm/ccm/internal/ownership"
	"golang.org/x/sys/unix"
)

// DefaultPath is the state directory of a ccm running as a service.
const DefaultPath = "/var/lib/ccm"

// PathEnv overrides the default state directory, for hosts and test
// suites that must not use DefaultPath.
const PathEnv = "CCM_STATE_DIR"

// Resolve is the state directory named (by a flag), else $CCM_STATE_DIR's,
// else DefaultPath; explicit is set when one was named, so that the
// caller may refuse an unusable one there and only warn about the
// default.
func Resolve(named string) (path string, explicit bool) {
	path, explicit = named, named != ""
	if !explicit {
		path = os.Getenv(PathEnv)
		explicit = path != ""
	}
	if path == "" {
		path = DefaultPath
	}
	return path, explicit
}

// tempPrefix starts the names of files being written; names given by
// callers may not start with a dot, so a leftover is recognised.
const tempPrefix = ".tmp-"

// maxName bounds a name so its temporary name stays under NAME_MAX.
const maxName = 200

// Dir is an open state directory, or a subdirectory of one.
type Dir struct {
	mu sync.Mutex
	// root is nil while the directory does not exist: the first write
	// makes it, under the checks an existing one passes at open, so a run
	// that records nothing leaves nothing on disk.
	root *os.Root
	path string
	// readOnly refuses every write, for runs that must change nothing.
	readOnly bool
	// madeFrom is the topmost directory made by d's first write (d's path
	// or one above it), "" when d existed: what Prune may take back.
	madeFrom string
}

// Open opens the state directory at path. A missing one is made (with
// its parents, mode 0700) by the first write; until then it reads as
// empty. One that exists, or the way to a missing one, is checked now.
func Open(path string) (*Dir, error) { return open(path, false) }

// OpenReadOnly opens the state directory at path for reading only, as a
// noop run needs: nothing is created, made private or cleaned up, its
// subdirectories are not created either, and every write fails with
// ErrReadOnly. A missing directory is an error matching fs.ErrNotExist;
// one others may tamper with is refused as Open refuses it.
func OpenReadOnly(path string) (*Dir, error) { return open(path, true) }

func open(path string, readOnly bool) (*Dir, error) {
	if !filepath.IsAbs(path) {
		abs, err := filepath.Abs(path)
		if err != nil {
			return nil, fmt.Errorf("state directory %s: %w", path, err)
		}
		path = abs
	}
	root, err := openRoot(path, readOnly, false)
	if !readOnly && errors.Is(err, fs.ErrNotExist) {
		if err := creatable(path); err != nil {
			return nil, err
		}
		return &Dir{path: path}, nil
	}
	if err != nil {
		return nil, err
	}
	return opened(root, path, readOnly)
}

// creatable checks that the missing directory path could be made, so a
// user who cannot hears of it at open, not at the first write.
func creatable(path string) error {
	dir := filepath.Dir(path)
	for {
		err := unix.Access(dir, unix.W_OK|unix.X_OK)
		if !errors.Is(err, fs.ErrNotExist) || dir == "/" {
			if err != nil {
				return fmt.Errorf("creating the state directory %s: %s: %w", path, dir, err)
			}
			return nil
		}
		dir = filepath.Dir(dir)
	}
}

// openRoot opens the directory at path once it passes openChecked and
// private, making it first when mkdir is set.
func openRoot(path string, readOnly, mkdir bool) (*os.Root, error) {
	f, err := openChecked(path, mkdir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("state directory %s: %w", path, err)
	}
	if err := private(path, st, chmodUnless(readOnly, f.Chmod)); err != nil {
		return nil, err
	}
	// The directory checked, reached by its descriptor rather than by
	// its path again.
	root, err := os.OpenRoot("/proc/self/fd/" + strconv.Itoa(int(f.Fd())))
	if err != nil {
		return nil, fmt.Errorf("opening the state directory %s: %w", path, err)
	}
	if err := same(root, path, st); err != nil {
		return nil, errors.Join(err, root.Close())
	}
	return root, nil
}

// openChecked opens the directory at path (creating it and its parents
// 0700 when missing and mkdir is set) under the ownership rule: it and
// every directory above it must be owned by root or ccm's user and
// writable by no one else, bar sticky parents such as /tmp. A missing
// one is an error matching fs.ErrNotExist once the way to it passed.
func openChecked(path string, mkdir bool) (*os.File, error) {
	var f *os.File
	var err error
	if mkdir {
		f, err = ownership.MkdirAll(path, 0o700)
	} else {
		f, err = ownership.OpenDir(path)
	}
	switch {
	case errors.Is(err, ownership.ErrUnsafe):
		return nil, fmt.Errorf("%w: %w", ErrUnsafe, err)
	case errors.Is(err, syscall.ENOTDIR):
		return nil, fmt.Errorf("%w: %s is not a directory; remove it or choose another --state-dir", ErrUnsafe, path)
	case err != nil && mkdir:
		return nil, fmt.Errorf("creating the state directory %s: %w", path, err)
	case err != nil:
		return nil, fmt.Errorf("state directory %s: %w", path, err)
	}
	return f, nil
}

// made returns the directory's root, making the directory first when it
// is missing.
func (d *Dir) made() (*os.Root, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.root == nil {
		from := missingFrom(d.path)
		root, err := openRoot(d.path, false, true)
		if err != nil {
			return nil, err
		}
		d.root, d.madeFrom = root, from
	}
	return d.root, nil
}

// missingFrom returns the topmost missing directory on the way to path,
// path itself included; "" when path exists.
func missingFrom(path string) string {
	top := ""
	for p := path; p != filepath.Dir(p); p = filepath.Dir(p) {
		if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
			break
		}
		top = p
	}
	return top
}

// stale forgets root, the directory's descriptor, when a write found it
// removed (a run that pruned it: Prune), so that the next made() makes
// it again.
func (d *Dir) stale(root *os.Root) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.root == root {
		_ = root.Close()
		d.root, d.madeFrom = nil, ""
	}
}

// Prune removes the directory when it is empty and this Dir's first write
// made it, with the directories above it that write made, as far as they
// are empty too: a run whose records were all consumed (a refresh owed
// and done) leaves the host as one that recorded nothing, as upstream's
// runs do. A directory that existed before is left, as is one another
// process writes to (rmdir(2) refuses a directory that is not empty, and
// a write that finds its directory pruned makes it again).
func (d *Dir) Prune() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.root == nil || d.madeFrom == "" || d.readOnly {
		return
	}
	if entries, err := fs.ReadDir(d.root.FS(), "."); err != nil || len(entries) != 0 {
		return
	}
	_ = d.root.Close()
	d.root = nil
	for p := d.path; ; p = filepath.Dir(p) {
		if rmdirIn(filepath.Dir(p), filepath.Base(p)) != nil || p == d.madeFrom {
			break
		}
	}
	d.madeFrom = ""
}

// rmdirIn removes the empty directory name from parent, reached under the
// ownership rule (no link followed), never by a path string again.
func rmdirIn(parent, name string) error {
	f, err := ownership.OpenDir(parent)
	if err != nil {
		return err
	}
	defer f.Close()
	return unix.Unlinkat(int(f.Fd()), name, unix.AT_REMOVEDIR)
}

// existing returns the directory's root, or nil while it is missing. A
// directory missing at open that another Dir (or process) has made since
// is opened, under the checks of Open, so that it is read.
func (d *Dir) existing() (*os.Root, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.root == nil {
		root, err := openRoot(d.path, false, false)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		d.root = root
	}
	return d.root, nil
}

// Create makes the directory now when it is missing, for callers that
// work in it by path (Path) rather than through Dir.
func (d *Dir) Create() error {
	if d.readOnly {
		return fmt.Errorf("%w: %s", ErrReadOnly, d.path)
	}
	_, err := d.made()
	return err
}

// Sub opens the subdirectory name: one per user of the state directory
// ("refreshes", "rollback", "bundles"). A missing one is made by its
// first write, as Open's is. In a read-only directory a missing one is
// an error matching fs.ErrNotExist, and the one opened is read-only too.
func (d *Dir) Sub(name string) (*Dir, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	path := filepath.Join(d.path, name)
	parent, err := d.existing()
	if err != nil {
		return nil, err
	}
	if parent == nil {
		return &Dir{path: path}, nil
	}
	st, err := parent.Lstat(name)
	if !d.readOnly && errors.Is(err, fs.ErrNotExist) {
		return &Dir{path: path}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("state directory %s: %w", path, err)
	}
	if err := private(path, st, chmodUnless(d.readOnly, func(m fs.FileMode) error { return parent.Chmod(name, m) })); err != nil {
		return nil, err
	}
	root, err := parent.OpenRoot(name)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	if err := same(root, path, st); err != nil {
		return nil, errors.Join(err, root.Close())
	}
	return opened(root, path, d.readOnly)
}

// opened wraps root after removing what a crash left half-written, unless
// it is read-only.
func opened(root *os.Root, path string, readOnly bool) (*Dir, error) {
	d := &Dir{root: root, path: path, readOnly: readOnly}
	if readOnly {
		return d, nil
	}
	if err := d.removeTemps(); err != nil {
		return nil, errors.Join(err, root.Close())
	}
	return d, nil
}

// chmodUnless is chmod, or nil when readOnly: a read-only open leaves the
// mode as it is.
func chmodUnless(readOnly bool, chmod func(fs.FileMode) error) func(fs.FileMode) error {
	if readOnly {
		return nil
	}
	return chmod
}

// private checks that st, the directory at path, is one only this process's
// user may touch, and removes read and search bits others have (when chmod
// is set).
func private(path string, st fs.FileInfo, chmod func(fs.FileMode) error) error {
	if !st.IsDir() {
		return fmt.Errorf("%w: %s is not a directory; remove it or choose another --state-dir", ErrUnsafe, path)
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if ok && int(sys.Uid) != os.Geteuid() {
		return fmt.Errorf("%w: %s is owned by uid %d, not %d; chown it or choose another --state-dir", ErrUnsafe, path, sys.Uid, os.Geteuid())
	}
	perm := st.Mode().Perm()
	if perm&0o022 != 0 {
		return fmt.Errorf("%w: %s is writable by others (mode %04o); check what it holds, then chmod 0700 it", ErrUnsafe, path, perm)
	}
	if perm&0o077 != 0 && chmod != nil {
		if err := chmod(0o700); err != nil {
			return fmt.Errorf("making %s private: %w", path, err)
		}
	}
	return nil
}

// same checks that root opened the directory that was checked, not one
// swapped in since.
func same(root *os.Root, path string, checked fs.FileInfo) error {
	st, err := root.Stat(".")
	if err != nil {
		return fmt.Errorf("state directory %s: %w", path, err)
	}
	if !os.SameFile(st, checked) {
		return fmt.Errorf("%w: %s was replaced while being opened", ErrUnsafe, path)
	}
	return nil
}

// Path returns the directory's path, for messages.
func (d *Dir) Path() string { return d.path }

// Close releases the directory.
func (d *Dir) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.root == nil {
		return nil
	}
	return d.root.Close()
}

// checkName accepts single, plain path components that do not start with
// a dot.
func checkName(name string) error {
	switch {
	case name == "", len(name) > maxName:
		return fmt.Errorf("%w: %q must be 1 to %d bytes", ErrBadName, name, maxName)
	case strings.ContainsAny(name, "/\x00"):
		return fmt.Errorf("%w: %q must not contain a slash or a NUL byte", ErrBadName, name)
	case strings.HasPrefix(name, "."):
		return fmt.Errorf("%w: %q must not start with a dot", ErrBadName, name)
	}
	return nil
}

// removeTemps deletes temporary files left by writes a crash interrupted.
func (d *Dir) removeTemps() error {
	entries, err := d.entries()
	if err != nil {
		return err
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), tempPrefix) {
			if err := d.root.Remove(e.Name()); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("removing the leftover %s: %w", filepath.Join(d.path, e.Name()), err)
			}
		}
	}
	return nil
}

// entries lists the directory; a missing one holds nothing.
func (d *Dir) entries() ([]fs.DirEntry, error) {
	root, err := d.existing()
	if root == nil {
		return nil, err
	}
	entries, err := fs.ReadDir(root.FS(), ".")
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", d.path, err)
	}
	return entries, nil
}

// Names lists the files in the directory, sorted; subdirectories and
// files being written are left out.
func (d *Dir) Names() ([]string, error) {
	entries, err := d.entries()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if e.Type().IsRegular() && !strings.HasPrefix(e.Name(), ".") {
			out = append(out, e.Name())
		}
	}
	return out, nil
}

// OpenNamed opens the state directory named (Resolve), for reading only
// when readOnly. One that cannot be used is an error only when named on
// purpose; the default is then no directory, with why in unusable, so
// ccm still runs for users who cannot write DefaultPath. Read only, a
// missing one is no directory: a noop run creates nothing.
func OpenNamed(named string, readOnly bool) (d *Dir, unusable, err error) {
	path, explicit := Resolve(named)
	d, err = open(path, readOnly)
	switch {
	case readOnly && errors.Is(err, fs.ErrNotExist):
		return nil, nil, nil
	case err != nil && !explicit:
		return nil, err, nil
	}
	return d, nil, err
}
