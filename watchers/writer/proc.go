package writer

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/sys/unix"
)

// maxCommand bounds the command line in a description, in runes.
const maxCommand = 100

// procRead bounds what is read of a /proc file: a status file's Name
// and Uid lines come in its first few hundred bytes, and a command line
// is cut to maxCommand runes.
const procRead = 2048

// describe names a running process: "pid 1234 (sed -i s/a/b/ /etc/motd)
// uid 0". It reports false once the process is gone. It runs for every
// change of a contested path, so each file is read with one open, one
// read and one close.
func describe(pid int) (string, bool) {
	var buf [procRead]byte
	dir := "/proc/" + strconv.Itoa(pid)
	status, ok := readStart(dir+"/status", buf[:])
	if !ok {
		return "", false
	}
	name := printable(field(status, "Name:"))
	uid, _, _ := strings.Cut(field(status, "Uid:"), "\t")
	cmd := commandLine(dir, buf[:])
	if cmd == "" {
		// A kernel thread, or a process exiting: its name only.
		cmd = name
	}
	return fmt.Sprintf("pid %d (%s) uid %s", pid, cmd, uid), true
}

// readStart reads the first len(buf) bytes of a /proc file into buf.
func readStart(path string, buf []byte) ([]byte, bool) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, false
	}
	n, err := unix.Read(fd, buf)
	unix.Close(fd)
	if err != nil {
		return nil, false
	}
	return buf[:n], true
}

// gone describes a process that exited before it could be named.
func gone(pid int) string { return fmt.Sprintf("pid %d (exited)", pid) }

// commandLine reads a process's arguments as one line, shortened; buf
// receives the raw arguments.
func commandLine(dir string, buf []byte) string {
	raw, ok := readStart(dir+"/cmdline", buf)
	if !ok {
		return ""
	}
	// Arguments are NUL-separated; newlines and tabs inside a script
	// would break a log line.
	words := strings.Fields(string(bytes.ReplaceAll(raw, []byte{0}, []byte{' '})))
	for i, w := range words {
		words[i] = printable(w)
	}
	line := strings.Join(words, " ")
	if r := []rune(line); len(r) > maxCommand {
		line = string(r[:maxCommand-1]) + "…"
	}
	return line
}

// printable quotes s, Go style, when it holds a character that is not
// printable: whoever runs a program chooses its name and arguments, and
// an escape sequence in them must not reach root's terminal, the journal
// or the fleet's reports as one.
func printable(s string) string {
	if strings.ContainsFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) || !utf8.ValidString(s) {
		return strconv.Quote(s)
	}
	return s
}

// field returns the value of a "Key:\tvalue" line of a /proc status file.
func field(status []byte, key string) string {
	for line := range strings.SplitSeq(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, key); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// holder describes a process other than self that holds one of paths
// open for writing, or returns "". It reads every process's descriptors:
// a few milliseconds on a busy host, so it runs only when a contested
// resource's writer is asked for and fanotify named nobody.
func holder(paths []string, self int) string {
	procs, err := os.ReadDir("/proc")
	if err != nil {
		return ""
	}
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil || pid == self {
			continue
		}
		if writes(pid, paths) {
			if d, ok := describe(pid); ok {
				return d
			}
		}
	}
	return ""
}

// writes reports whether pid has one of paths open for writing.
func writes(pid int, paths []string) bool {
	dir := filepath.Join("/proc", strconv.Itoa(pid))
	fds, err := os.ReadDir(dir + "/fd")
	if err != nil {
		return false
	}
	for _, fd := range fds {
		target, err := os.Readlink(filepath.Join(dir, "fd", fd.Name()))
		if err != nil || !slices.Contains(paths, target) {
			continue
		}
		info, err := os.ReadFile(filepath.Join(dir, "fdinfo", fd.Name()))
		if err != nil {
			continue
		}
		flags, err := strconv.ParseUint(field(info, "flags:"), 8, 32)
		if err == nil && flags&unix.O_ACCMODE != unix.O_RDONLY {
			return true
		}
	}
	return false
}
