package commit

import (
	"bytes"
	"os"
	"strconv"
)

// foreignPerFile is how much of the machine's dirty page cache, other
// than a round's own files, a round lets a syncfs write back for each
// file the run still has to sync: about what syncing a file alone costs
// more (an inode written and a device flush each), at a device's speed.
// Once written back, that data no longer delays the run's later rounds,
// so a large run flushes a neighbour's backlog once where a small one
// syncs its few files alone.
const foreignPerFile = 64 << 10

// pageSize rounds a file's size to the page cache's unit.
const pageSize = 4096

// littleDirty reports whether the machine's dirty page cache, the
// round's write-back started, holds little beyond the round's own files:
// no more than foreignPerFile for each file the run has still to sync.
func (g *Group) littleDirty(round []*waiter) bool {
	dirty, ok := g.dirty()
	if !ok {
		return false
	}
	own := int64(0)
	for _, w := range round {
		own += (w.d.Size() + pageSize - 1) / pageSize * pageSize
	}
	return dirty <= own+int64(g.run)*foreignPerFile
}

// dirtyBytes reads the page cache waiting to be written or being written
// (Dirty and Writeback in /proc/meminfo).
func dirtyBytes() (int64, bool) {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	total, found := int64(0), 0
	for line := range bytes.Lines(b) {
		name, rest, ok := bytes.Cut(line, []byte(":"))
		if !ok || (string(name) != "Dirty" && string(name) != "Writeback") {
			continue
		}
		kb, err := strconv.ParseInt(string(bytes.TrimSuffix(bytes.TrimSpace(rest), []byte(" kB"))), 10, 64)
		if err != nil {
			return 0, false
		}
		total += kb << 10
		found++
	}
	return total, found == 2
}
