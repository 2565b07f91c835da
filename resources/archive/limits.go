package archive

import (
	"fmt"
	"io"

	"golang.org/x/sys/unix"
)

// The fixed bounds. Upstream's archive has no property for them, so they
// are not set per resource; the free-space bounds below usually bind
// first.
const (
	// maxEntries bounds the members of one archive: ten times a Linux
	// kernel source tree, far more than a release archive holds.
	maxEntries = 1_000_000
	// maxEntrySize bounds one member's uncompressed size (a sparse member
	// counts as its full length): more than any file of a release archive,
	// and eight times what a ustar member can hold.
	maxEntrySize = 64 << 30
	// freeShare is the share, in percent, of the space (and inodes) a
	// filesystem has available to users other than root that one download
	// or extraction may take: root's reserved blocks and a tenth of the
	// rest always stay free, whatever the archive holds.
	freeShare = 90
)

// limits bound what one extraction writes, or one download.
type limits struct {
	// total bounds the bytes of every member together (for a download,
	// the archive's bytes).
	total int64
	// entry bounds the bytes of one member.
	entry int64
	// entries bounds the number of members.
	entries int64
	// dir is the directory written into, where stillRoom reads the free
	// space again, and floor what must stay available there: whatever
	// else fills the filesystem meanwhile (another extraction), the
	// writing stops there. No dir, no check.
	dir   string
	floor int64
	// dev is the filesystem's device, for pledges.
	dev uint64
}

// recheckEvery is how many bytes are written between two readings of the
// free space.
const recheckEvery = 8 << 20

// limitsFor returns the bounds for writing into the directory at path
// (an open directory's /proc/self/fd path): the fixed ones, lowered to
// freeShare of the space and inodes its filesystem has available now,
// less what running unzips set aside there (pledges).
func limitsFor(path string) (limits, error) {
	var st unix.Statfs_t
	var id unix.Stat_t
	err := unix.Statfs(path, &st)
	if err == nil {
		err = unix.Stat(path, &id)
	}
	if err != nil {
		return limits{}, fmt.Errorf("reading the free space: %w", err)
	}
	avail := max(available(st)-pledged(id.Dev), 0)
	l := limits{total: share(uint64(avail), 1), entry: maxEntrySize, entries: maxEntries, dir: path, dev: id.Dev}
	l.floor = avail - l.total
	// Filesystems without a fixed inode table (btrfs) report none.
	if st.Files > 0 {
		l.entries = min(l.entries, share(st.Ffree, 1))
	}
	l.entry = min(l.entry, l.total)
	return l, nil
}

// available is the space st says users other than root may still take.
func available(st unix.Statfs_t) int64 {
	return int64(min(st.Bavail, uint64(1<<63-1)/max(uint64(st.Bsize), 1)) * uint64(st.Bsize))
}

// stillRoom fails once the space available in l.dir fell under l.floor.
func (l limits) stillRoom() error {
	if l.dir == "" {
		return nil
	}
	var st unix.Statfs_t
	if err := unix.Statfs(l.dir, &st); err != nil {
		return fmt.Errorf("reading the free space: %w", err)
	}
	if available(st)-pledged(l.dev) < l.floor {
		return &lowSpace{floor: l.floor}
	}
	return nil
}

// lowSpace is the error of a filesystem that something else filled while
// an archive was written to it.
type lowSpace struct{ floor int64 }

func (e *lowSpace) Error() string {
	return fmt.Sprintf("its filesystem has less than %d bytes available now, %d%% of what it had when this began (something else is filling it)",
		e.floor, 100-freeShare)
}

// Is lets errors.Is(err, ErrTooLarge) match.
func (e *lowSpace) Is(target error) bool { return target == ErrTooLarge }

// roomWriter writes to w and reads the free space again every
// recheckEvery bytes, failing once it fell under the floor.
type roomWriter struct {
	w     io.Writer
	l     limits
	since int64
}

func (r *roomWriter) Write(p []byte) (int, error) {
	r.since += int64(len(p))
	if r.since >= recheckEvery {
		r.since = 0
		if err := r.l.stillRoom(); err != nil {
			return 0, err
		}
	}
	return r.w.Write(p)
}

// less is l with n bytes fewer for the members together.
func (l limits) less(n int64) limits {
	l.total = max(l.total-n, 0)
	l.entry = min(l.entry, l.total)
	return l
}

// share is freeShare of n units of size bytes, saturating far above any
// real filesystem.
func share(n, size uint64) int64 {
	const most = uint64(1<<63-1) / freeShare
	size = max(size, 1)
	return int64(min(n, most/size) * size * freeShare / 100)
}

// overLimit is a bound an archive exceeded.
type overLimit struct {
	// what says what grew too large, e.g. "member app/big".
	what  string
	limit int64
	// unit is "bytes" or "members".
	unit string
	// fixed is set when the fixed bound applied, not the free-space one.
	fixed bool
}

func (e *overLimit) Error() string {
	from := fmt.Sprintf("%d%% of what its filesystem has free", freeShare)
	if e.fixed {
		from = "ccm's fixed limit"
	}
	n := fmt.Sprintf("%d %s", e.limit, e.unit)
	switch {
	case e.unit != "bytes":
	case e.limit >= 1<<30:
		n += fmt.Sprintf(" (%.1f GiB)", float64(e.limit)/(1<<30))
	case e.limit >= 1<<20:
		n += fmt.Sprintf(" (%.1f MiB)", float64(e.limit)/(1<<20))
	}
	return fmt.Sprintf("%s holds more than %s, %s", e.what, n, from)
}

// Is lets errors.Is(err, ErrTooLarge) match.
func (e *overLimit) Is(target error) bool { return target == ErrTooLarge }

// tooManyEntries is the error for one member more than the bound.
func (l limits) tooManyEntries() error {
	return &overLimit{what: "the archive", limit: l.entries, unit: "members", fixed: l.entries == maxEntries}
}

// tooLarge is the error for a member, or for all of them together, over
// its bound.
func (l limits) tooLarge(member string, whole bool) error {
	if whole {
		return &overLimit{what: "the archive's members together", limit: l.total, unit: "bytes"}
	}
	return &overLimit{what: "member " + member, limit: l.entry, unit: "bytes", fixed: l.entry == maxEntrySize}
}

// meter counts the bytes of an archive's members as they are read and
// fails as soon as one member or all of them together exceed the bounds.
type meter struct {
	limits
	written int64
	members int64
}

// member reads one member from r to w (io.Discard when only counting)
// and counts it. It reads at most one byte past a bound, so a bomb costs
// no more than the bound to detect.
func (m *meter) member(name string, w io.Writer, r io.Reader) error {
	m.members++
	if m.members > m.entries {
		return m.tooManyEntries()
	}
	room := min(m.entry, m.total-m.written)
	n, err := io.Copy(w, io.LimitReader(r, room+1))
	m.written += n
	if n > room {
		return m.tooLarge(name, room < m.entry)
	}
	return err
}
