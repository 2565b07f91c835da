package statuscache

import (
	"errors"
	"fmt"
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

// fingerprint describes the database files at one moment.
type fingerprint struct {
	// key changes whenever a file or directory entry is replaced, resized
	// or touched.
	key string
	// racy is true when a file changed so recently that a later change
	// could leave key as it is.
	racy bool
}

// takeFingerprint stats every path, and every entry of the paths that are
// directories. A missing path is part of the fingerprint, not an error.
func takeFingerprint(paths []string, now time.Time) (fingerprint, error) {
	var b strings.Builder
	var newest time.Time
	for _, p := range paths {
		fi, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(&b, "%s missing\n", p)
			continue
		}
		if err != nil {
			return fingerprint{}, fmt.Errorf("%w: %w", ErrFingerprint, err)
		}
		newest = later(newest, describe(&b, p, fi))
		if !fi.IsDir() {
			continue
		}
		t, err := describeEntries(&b, p)
		if err != nil {
			return fingerprint{}, err
		}
		newest = later(newest, t)
	}
	return fingerprint{key: b.String(), racy: isRacy(newest, now)}, nil
}

func describeEntries(b *strings.Builder, dir string) (time.Time, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return time.Time{}, fmt.Errorf("%w: %w", ErrFingerprint, err)
	}
	var newest time.Time
	for _, e := range entries {
		fi, err := e.Info()
		if errors.Is(err, fs.ErrNotExist) {
			// Removed since ReadDir: the directory's own times changed too.
			continue
		}
		if err != nil {
			return time.Time{}, fmt.Errorf("%w: %w", ErrFingerprint, err)
		}
		newest = later(newest, describe(b, dir+"/"+e.Name(), fi))
	}
	return newest, nil
}

// describe writes one file's identity and times to b and returns the later
// of its modification and change times.
func describe(b *strings.Builder, p string, fi fs.FileInfo) time.Time {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		fmt.Fprintf(b, "%s %d %d\n", p, fi.Size(), fi.ModTime().UnixNano())
		return fi.ModTime()
	}
	ctime := time.Unix(st.Ctim.Sec, st.Ctim.Nsec)
	fmt.Fprintf(b, "%s %d:%d %d %d %d\n", p, st.Dev, st.Ino, st.Size, fi.ModTime().UnixNano(), ctime.UnixNano())
	return later(fi.ModTime(), ctime)
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
