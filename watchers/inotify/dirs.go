package inotify

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"

	"github.com/reactive-ccm/ccm/watchers/inotify/internal/kernel"
)

// need is what a registration needs from a watched directory. A
// directory used for several needs is watched for the union of their
// events.
type need uint8

const (
	// needSelf asks only for the directory's own rename, deletion or
	// unmount: enough for a directory above a target's head, whose other
	// entries are nobody's business. Changes among them wake nobody.
	needSelf need = iota
	// needDir adds the directory's own attribute changes: a target that
	// is a directory watches itself for its owner and mode, and its
	// parent only for its name going or being replaced (needName).
	needDir
	// needName adds entries deleted and renamed, for the parent of a
	// directory target: the directory's own events may come late (its
	// removal is reported to it only once nobody holds it open). An entry
	// cannot be created under its name while it exists, and once it is
	// gone the target waits with needEntries; so files made and written
	// beside a managed directory wake nobody.
	needName
	// needEntries adds entries created: the head of a directory target
	// that is missing, and the parent of a symlink in a chain, since
	// replacing the symlink re-points every directory below it.
	needEntries
	// needAll adds writes and attribute changes of entries: the head of
	// a target that is not a directory, and every directory of a tree.
	needAll
	needs
)

// masks holds the inotify mask of each need. IN_ONLYDIR makes a directory
// replaced by a file fail with ENOTDIR instead of watching the file.
// IN_DONT_FOLLOW is left out: a symlinked directory is watched as the
// directory it points to. A write is seen through IN_MODIFY, which every
// write and truncation sends, so IN_CLOSE_WRITE would only add wake-ups.
var masks = [needs]uint32{
	needSelf:    selfEvents,
	needDir:     selfEvents | unix.IN_ATTRIB,
	needName:    selfEvents | nameEvents,
	needEntries: selfEvents | entryEvents,
	needAll:     selfEvents | entryEvents | unix.IN_MODIFY | unix.IN_ATTRIB,
}

const (
	selfEvents = unix.IN_MOVE_SELF | unix.IN_DELETE_SELF | unix.IN_ONLYDIR
	// nameEvents are an entry going or another taking its name.
	nameEvents  = unix.IN_DELETE | unix.IN_MOVED_FROM | unix.IN_MOVED_TO
	entryEvents = nameEvents | unix.IN_CREATE

	// created and gone classify events for routing; the kernel sends
	// IN_UNMOUNT without being asked.
	created = unix.IN_CREATE | unix.IN_MOVED_TO
	gone    = unix.IN_DELETE | unix.IN_MOVED_FROM | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_UNMOUNT
)

// use counts the users of one watched directory per need; the watch's
// mask is the union of the needs in use.
type use struct {
	count [needs]int
	// symlink records whether the path was a symlink when first watched.
	// It holds while the directory is watched: replacing the symlink
	// deletes or renames it, which re-arms every user.
	symlink bool
}

func (u *use) mask() uint32 {
	var m uint32
	for n, c := range u.count {
		if c > 0 {
			m |= masks[n]
		}
	}
	return m
}

func (u *use) users() int {
	total := 0
	for _, c := range u.count {
		total += c
	}
	return total
}

// link is one watched directory of a registration and what it needs there.
type link struct {
	dir  string
	need need
}

// acquire watches dirs for a registration: the first len(first) get
// the needs in first, the others only their own fate, unless the
// directory below them is a symlink. On failure it undoes what it added.
func (h *Hub) acquire(dirs []string, first ...need) ([]link, error) {
	links := make([]link, 0, len(dirs))
	for i, d := range dirs {
		l := link{dir: d, need: needSelf}
		switch {
		case i < len(first):
			l.need = first[i]
		case h.dirs[dirs[i-1]].symlink:
			l.need = needEntries
		}
		if err := h.hold(l); err != nil {
			h.release(links)
			return nil, err
		}
		links = append(links, l)
	}
	return links, nil
}

// hold adds a use of l.dir, watching the directory or widening its watch
// when the use adds events.
func (h *Hub) hold(l link) error {
	u, ok := h.dirs[l.dir]
	if !ok {
		fi, err := os.Lstat(l.dir)
		u = &use{symlink: err == nil && fi.Mode()&os.ModeSymlink != 0}
	}
	before := u.mask()
	u.count[l.need]++
	if !ok || u.mask() != before {
		err := h.in.Watch(l.dir, u.mask())
		if errors.Is(err, kernel.ErrWider) {
			h.log.Debug("inotify: watch wider than needed", "dir", l.dir, "error", err)
		} else if err != nil {
			u.count[l.need]--
			return err
		}
	}
	h.dirs[l.dir] = u
	return nil
}

// release drops the uses of links, removing the watches nobody uses any
// more and narrowing those that a need went away from.
func (h *Hub) release(links []link) {
	for _, l := range links {
		u := h.dirs[l.dir]
		before := u.mask()
		u.count[l.need]--
		var err error
		switch {
		case u.users() == 0:
			delete(h.dirs, l.dir)
			err = h.in.Unwatch(l.dir)
		case u.mask() != before:
			err = h.in.Watch(l.dir, u.mask())
		}
		if err != nil {
			// The directory is gone or replaced: the kernel reports that,
			// and a watch left wider than needed costs only wake-ups.
			h.log.Debug("inotify: releasing a watch", "dir", l.dir, "error", err)
		}
	}
}
