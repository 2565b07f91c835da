package safepath

import (
	"encoding/binary"
	"errors"

	"golang.org/x/sys/unix"
)

// entry is one name in a directory with its type (a DT_ constant).
type entry struct {
	name string
	typ  uint8
}

// entries lists d's names, without . and ..; the type is DT_UNKNOWN on
// filesystems that do not report it.
func (d *Dir) entries() ([]entry, error) {
	fd, err := unix.Openat(d.fd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, pathError("open", d.path, err)
	}
	defer unix.Close(fd)
	var out []entry
	buf := make([]byte, 8192)
	for {
		n, err := unix.Getdents(fd, buf)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return nil, pathError("readdir", d.path, err)
		}
		if n <= 0 {
			return out, nil
		}
		out = parseDirents(buf[:n], out)
	}
}

// parseDirents appends the entries of a getdents64 buffer: each record is
// ino (8), off (8), reclen (2), type (1), then the NUL-terminated name.
func parseDirents(b []byte, out []entry) []entry {
	for len(b) >= 19 {
		reclen := int(binary.NativeEndian.Uint16(b[16:18]))
		if reclen < 19 || reclen > len(b) {
			break
		}
		typ, name := b[18], b[19:reclen]
		for i, c := range name {
			if c == 0 {
				name = name[:i]
				break
			}
		}
		if s := string(name); s != "." && s != ".." {
			out = append(out, entry{name: s, typ: typ})
		}
		b = b[reclen:]
	}
	return out
}
