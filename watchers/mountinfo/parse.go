package mountinfo

import (
	"strings"
)

// Path is the table every process sees its own mount namespace's mounts
// in.
const Path = "/proc/self/mountinfo"

// Entry is one line of the mount table.
type Entry struct {
	// ID and Parent are the mount's id and its parent's.
	ID, Parent string
	// Device is the filesystem's device number, "major:minor".
	Device string
	// Root is the directory of the filesystem mounted there (a bind
	// mount's is not "/").
	Root string
	// Point is the mount point.
	Point string
	// Options are the mount's own options (ro, nosuid...); Super are the
	// filesystem's (size=...).
	Options, Super string
	FSType, Source string
}

// Parse reads a mount table (proc(5)'s mountinfo format); malformed
// lines are left out.
func Parse(table string) []Entry {
	var out []Entry
	for line := range strings.SplitSeq(table, "\n") {
		if e, ok := parseLine(line); ok {
			out = append(out, e)
		}
	}
	return out
}

// parseLine splits one line: ID PARENT MAJ:MIN ROOT POINT OPTIONS
// [OPTIONAL...] - FSTYPE SOURCE SUPER.
func parseLine(line string) (Entry, bool) {
	head, tail, ok := strings.Cut(line, " - ")
	if !ok {
		return Entry{}, false
	}
	f, t := strings.Fields(head), strings.Fields(tail)
	if len(f) < 6 || len(t) < 2 {
		return Entry{}, false
	}
	e := Entry{ID: f[0], Parent: f[1], Device: f[2], Root: Unescape(f[3]), Point: Unescape(f[4]), Options: f[5],
		FSType: t[0], Source: Unescape(t[1])}
	if len(t) > 2 {
		e.Super = t[2]
	}
	return e, true
}

// Unescape undoes the octal escapes (\040 for a space) the kernel writes
// in paths.
func Unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) && isOctal(s[i+1]) && isOctal(s[i+2]) && isOctal(s[i+3]) {
			b.WriteByte((s[i+1]-'0')<<6 | (s[i+2]-'0')<<3 | (s[i+3] - '0'))
			i += 3
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }

// pointsOf groups a table's lines by mount point, each group in table
// order, for comparing two tables.
func pointsOf(table string) map[string]string {
	out := map[string]string{}
	for line := range strings.SplitSeq(table, "\n") {
		if e, ok := parseLine(line); ok {
			out[e.Point] += line + "\n"
		}
	}
	return out
}
