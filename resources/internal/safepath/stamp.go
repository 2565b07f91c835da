package safepath

import (
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// Stamp identifies a file and its last change: device, inode, size and
// the modification and change times. A file whose stamp is the same as
// when it was taken holds the same content, provided its filesystem gives
// a change made after a stat a new time (finerStamps): a write changes
// the modification time, a rename over it the inode, a restored
// modification time (utimensat) the change time.
type Stamp struct {
	dev, ino   uint64
	size       int64
	mtim, ctim unix.Timespec
}

func stampOf(st *unix.Stat_t) Stamp {
	return Stamp{dev: st.Dev, ino: st.Ino, size: st.Size, mtim: st.Mtim, ctim: st.Ctim}
}

// Same reports whether st describes the file s was taken of, unchanged.
func (s Stamp) Same(st *unix.Stat_t) bool { return s == stampOf(st) }

// Filesystems that timestamp a change after a stat finely (multigrain
// timestamps, Linux 6.13): elsewhere two changes within a clock tick may
// get the same time.
var fineStampFS = map[int64]bool{
	unix.EXT4_SUPER_MAGIC:  true,
	unix.XFS_SUPER_MAGIC:   true,
	unix.BTRFS_SUPER_MAGIC: true,
	unix.TMPFS_MAGIC:       true,
}

// finerStamps reports whether the filesystem of fd gives every change
// made after a stat a time of its own. It asks every time: a device
// number may name another filesystem after an unmount.
func finerStamps(fd int) bool {
	var fs unix.Statfs_t
	return multigrainKernel() && unix.Fstatfs(fd, &fs) == nil && fineStampFS[int64(fs.Type)]
}

// multigrainKernel reports whether the running kernel is Linux 6.13 or
// later.
var multigrainKernel = sync.OnceValue(func() bool {
	var u unix.Utsname
	if unix.Uname(&u) != nil {
		return false
	}
	return kernelAtLeast(unix.ByteSliceToString(u.Release[:]), 6, 13)
})

// kernelAtLeast reports whether release ("6.18.44-fc") is major.minor or
// later.
func kernelAtLeast(release string, major, minor int) bool {
	parts := strings.SplitN(release, ".", 3)
	if len(parts) < 2 {
		return false
	}
	digits := parts[1]
	if i := strings.IndexFunc(digits, func(r rune) bool { return r < '0' || r > '9' }); i >= 0 {
		digits = digits[:i]
	}
	ma, err1 := strconv.Atoi(parts[0])
	mi, err2 := strconv.Atoi(digits)
	if err1 != nil || err2 != nil {
		return false
	}
	return ma > major || ma == major && mi >= minor
}
