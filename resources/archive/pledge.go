package archive

import (
	"fmt"
	"sync"

	"golang.org/x/sys/unix"
)

// pledges are the bytes unzips running now were allowed to write, by
// filesystem (device). unzip writes unwatched, so what its zip was counted
// at is set aside for its whole run: every other download or extraction
// on that filesystem sees that much less room, and two zips extracted at
// once cannot together pass the bound.
var pledges = struct {
	sync.Mutex
	by map[uint64]int64
}{by: map[uint64]int64{}}

// pledged is what running unzips have set aside on dev.
func pledged(dev uint64) int64 {
	pledges.Lock()
	defer pledges.Unlock()
	return pledges.by[dev]
}

// pledge sets n bytes aside on l's filesystem, once they fit in what it
// has available now, less what others set aside and the floor; release
// gives them back. Limits without a directory (tests') pledge nothing.
func (l limits) pledge(n int64) (release func(), err error) {
	if l.dir == "" {
		return func() {}, nil
	}
	var st unix.Statfs_t
	if err := unix.Statfs(l.dir, &st); err != nil {
		return nil, fmt.Errorf("reading the free space: %w", err)
	}
	pledges.Lock()
	defer pledges.Unlock()
	if room := available(st) - pledges.by[l.dev] - l.floor; n > room {
		return nil, &overLimit{what: "the archive's members together", limit: max(room, 0), unit: "bytes"}
	}
	pledges.by[l.dev] += n
	return func() {
		pledges.Lock()
		defer pledges.Unlock()
		if pledges.by[l.dev] -= n; pledges.by[l.dev] == 0 {
			delete(pledges.by, l.dev)
		}
	}, nil
}
