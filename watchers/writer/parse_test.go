package writer

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// info is one info record: its type, then body.
func info(typ byte, body []byte) []byte {
	h := []byte{typ, 0, 0, 0}
	binary.NativeEndian.PutUint16(h[2:], uint16(4+len(body)))
	return append(h, body...)
}

// dfid is a DFID_NAME record's body: an fsid, the directory's file
// handle and the entry's name, NUL-terminated unless noNUL.
func dfid(handle, name string, noNUL bool) []byte {
	b := make([]byte, 16, 16+len(handle)+len(name)+1)
	copy(b, "FSID0001")
	binary.NativeEndian.PutUint32(b[8:], uint32(len(handle)))
	binary.NativeEndian.PutUint32(b[12:], 1)
	b = append(append(b, handle...), name...)
	if !noNUL {
		b = append(b, 0)
	}
	return b
}

// event is struct fanotify_event_metadata for pid and mask, then recs;
// size, when not 0, overrides the event_len it states.
func event(pid int32, mask uint64, size int, recs ...[]byte) []byte {
	b := make([]byte, 24)
	b[4] = unix.FANOTIFY_METADATA_VERSION
	binary.NativeEndian.PutUint16(b[6:], 24)
	binary.NativeEndian.PutUint64(b[8:], mask)
	binary.NativeEndian.PutUint32(b[16:], uint32(0xffffffff))
	binary.NativeEndian.PutUint32(b[20:], uint32(pid))
	for _, r := range recs {
		b = append(b, r...)
	}
	if size == 0 {
		size = len(b)
	}
	binary.NativeEndian.PutUint32(b[0:], uint32(size))
	return b
}

// TestParseEvents decodes buffers as the kernel fills them, and ends,
// rather than reads past the buffer, on whatever does not add up.
func TestParseEvents(t *testing.T) {
	name := func(handle, n string) []byte { return info(unix.FAN_EVENT_INFO_TYPE_DFID_NAME, dfid(handle, n, false)) }
	one := event(7, unix.FAN_MODIFY, 0, name("HANDLE", "motd"))
	for _, c := range []struct {
		name string
		buf  []byte
		want string
	}{
		{"one event", one, "7 HANDLE motd"},
		{"two in a row", slices.Concat(one, event(8, unix.FAN_ATTRIB, 0, name("H2", "hosts"))), "7 HANDLE motd; 8 H2 hosts"},
		{"an overflow is no change", slices.Concat(event(-1, unix.FAN_Q_OVERFLOW, 0, name("H", "x")), one), "7 HANDLE motd"},
		{"another record first", event(9, unix.FAN_CREATE, 0, info(unix.FAN_EVENT_INFO_TYPE_FID, []byte("0123456789abcdef")), name("H", "x")), "9 H x"},
		{"a name without its NUL", event(7, unix.FAN_MODIFY, 0, info(unix.FAN_EVENT_INFO_TYPE_DFID_NAME, dfid("H", "tail", true))), "7 H tail"},
		{"no name record", event(7, unix.FAN_MODIFY, 0, info(unix.FAN_EVENT_INFO_TYPE_FID, []byte("0123456789abcdef"))), ""},
		{"a record too short for a handle", event(7, unix.FAN_MODIFY, 0, info(unix.FAN_EVENT_INFO_TYPE_DFID_NAME, []byte("short"))), ""},
		{"a handle longer than its record", event(7, unix.FAN_MODIFY, 0, info(unix.FAN_EVENT_INFO_TYPE_DFID_NAME, dfid("H", "", true)[:16])), ""},
		{"a record shorter than its header", slices.Concat(event(7, unix.FAN_MODIFY, 0, []byte{unix.FAN_EVENT_INFO_TYPE_DFID_NAME, 0, 2, 0}), one), "7 HANDLE motd"},
		{"an event shorter than its metadata", slices.Concat(event(7, unix.FAN_MODIFY, 8), one), ""},
		{"an event longer than the buffer", event(7, unix.FAN_MODIFY, 4096, name("H", "x")), ""},
		{"a buffer ending mid-metadata", slices.Concat(one, one[:20]), "7 HANDLE motd"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			parse(c.buf, func(ch change) {
				dir := string(ch.dir)
				if !strings.HasPrefix(dir, "FSID0001") {
					t.Fatalf("directory key %q does not start with the fsid", dir)
				}
				got = append(got, fmt.Sprintf("%d %s %s", ch.pid, dir[16:], ch.name))
			})
			if s := strings.Join(got, "; "); s != c.want {
				t.Fatalf("parsed %q, want %q", s, c.want)
			}
		})
	}
}

// TestDescriptionsOfProcessFiles: a status file's fields, and what of a
// name or an argument is shown as is or quoted.
func TestDescriptionsOfProcessFiles(t *testing.T) {
	status := []byte("Name:\tsed\nUmask:\t0022\nUid:\t0\t0\t0\t0\nGid:\t5\n")
	for key, want := range map[string]string{"Name:": "sed", "Uid:": "0\t0\t0\t0", "Gid:": "5", "Pid:": ""} {
		if got := field(status, key); got != want {
			t.Errorf("field(%s) = %q, want %q", key, got, want)
		}
	}
	for in, want := range map[string]string{
		"sed":            "sed",
		"café":           "café",
		"\x1b]0;owned\a": `"\x1b]0;owned\a"`,
		"bad\xffutf8":    `"bad\xffutf8"`,
	} {
		if got := printable(in); got != want {
			t.Errorf("printable(%q) = %q, want %q", in, got, want)
		}
	}
}
