package statuscache

import (
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"
	"time"
)

// Racy windows: a file written less than this long before it was looked at
// may be written again with the same size and times, because file times
// come from a clock that only advances every few milliseconds (a jiffy),
// or every second on filesystems that store whole seconds.
const (
	racyWindow       = 50 * time.Millisecond
	racyWindowCoarse = 2 * time.Second
)

// seed keys the content hashes; they are only compared within a process.
var seed = maphash.MakeSeed()

// fingerprint describes the database files at one moment.
type fingerprint struct {
	// stamp changes whenever a file or directory entry is replaced,
	// resized or touched.
	stamp string
	// hash is the hash of the files' content when hashed is true.
	hash   uint64
	hashed bool
	// racy is true when a file changed so recently that a later change
	// could leave stamp as it is, and the content was not hashed.
	racy bool
}

// hashMode says when takeFingerprint hashes file content.
type hashMode int

const (
	hashNever hashMode = iota
	hashIfRecent
	hashAlways
)

// file is one stat'ed path.
type file struct {
	path string
	info fs.FileInfo
}

// takeFingerprint stats every path, and every entry of the paths that are
// directories; a missing path is part of the fingerprint, not an error.
// Hashing the content of every file, always or when one changed within
// the racy window, makes a recent fingerprint trustworthy at once.
func takeFingerprint(paths []string, now time.Time, mode hashMode) (fingerprint, error) {
	files, missing, err := statAll(paths)
	if err != nil {
		return fingerprint{}, err
	}
	var b strings.Builder
	var newest time.Time
	for _, p := range missing {
		fmt.Fprintf(&b, "%s missing\n", p)
	}
	for _, f := range files {
		newest = later(newest, describe(&b, f))
	}
	fp := fingerprint{stamp: b.String(), racy: isRacy(newest, now)}
	if mode == hashAlways || (fp.racy && mode == hashIfRecent) {
		fp.hash, fp.hashed = hashContent(files)
		fp.racy = fp.racy && !fp.hashed
	}
	return fp, nil
}

func statAll(paths []string) (files []file, missing []string, err error) {
	for _, p := range paths {
		fi, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			missing = append(missing, p)
			continue
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%w: %w", ErrFingerprint, err)
		}
		files = append(files, file{p, fi})
		if fi.IsDir() {
			entries, err := statEntries(p)
			if err != nil {
				return nil, nil, err
			}
			files = append(files, entries...)
		}
	}
	return files, missing, nil
}

func statEntries(dir string) ([]file, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFingerprint, err)
	}
	files := make([]file, 0, len(entries))
	for _, e := range entries {
		fi, err := e.Info()
		if errors.Is(err, fs.ErrNotExist) {
			// Removed since ReadDir: the directory's own times changed too.
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrFingerprint, err)
		}
		files = append(files, file{dir + "/" + e.Name(), fi})
	}
	return files, nil
}

// describe writes one file's identity and times to b and returns the later
// of its modification and change times.
func describe(b *strings.Builder, f file) time.Time {
	mtime := f.info.ModTime()
	st, ok := f.info.Sys().(*syscall.Stat_t)
	if !ok {
		fmt.Fprintf(b, "%s %d %d\n", f.path, f.info.Size(), mtime.UnixNano())
		return mtime
	}
	ctime := time.Unix(st.Ctim.Unix())
	fmt.Fprintf(b, "%s %d:%d %d %d %d\n", f.path, st.Dev, st.Ino, st.Size, mtime.UnixNano(), ctime.UnixNano())
	return later(mtime, ctime)
}

// hashContent hashes the content of the regular files; ok is false when
// one of them vanished or could not be read, which a later fingerprint
// will show as a change.
func hashContent(files []file) (uint64, bool) {
	var h maphash.Hash
	h.SetSeed(seed)
	for _, f := range files {
		if !f.info.Mode().IsRegular() {
			continue
		}
		fmt.Fprintf(&h, "%s\n", f.path)
		if !copyFile(&h, f.path) {
			return 0, false
		}
	}
	return h.Sum64(), true
}

func copyFile(w io.Writer, path string) bool {
	fh, err := os.Open(path)
	if err != nil {
		return false
	}
	defer fh.Close()
	_, err = io.Copy(w, fh)
	return err == nil
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// isRacy reports whether a file last changed at newest, seen at now, could
// change again without its times changing. A time with no sub-second part
// most likely comes from a filesystem that stores whole seconds.
func isRacy(newest, now time.Time) bool {
	if newest.IsZero() {
		return false
	}
	window := racyWindow
	if newest.Nanosecond() == 0 {
		window = racyWindowCoarse
	}
	return now.Sub(newest) < window
}
