package textfile

import (
	"strings"
)

// Lines splits content into lines without their newlines; a final
// newline ends the last line rather than starting an empty one.
func Lines(content []byte) []string {
	if len(content) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(content), "\n"), "\n")
}

// Join is Lines' inverse for edited lines: each line ends with a
// newline, the last one included.
func Join(lines []string) []byte {
	n := 0
	for _, l := range lines {
		n += len(l) + 1
	}
	var b strings.Builder
	b.Grow(n)
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// Without returns a copy of lines without the lines at the indexes drop,
// which are in increasing order.
func Without(lines []string, drop []int) []string {
	out := make([]string, 0, len(lines)-len(drop))
	for i, l := range lines {
		if len(drop) > 0 && drop[0] == i {
			drop = drop[1:]
			continue
		}
		out = append(out, l)
	}
	return out
}

// Kinds of change an edit makes to a file's lines; "" is none.
const (
	Added    = "add"
	Replaced = "replace"
	Removed  = "remove"
)

// PutLine keeps one line for a key, want, in lines, where hits are the
// indexes (in increasing order) of the lines holding the key: the first
// replaced where it stands unless same says it already is want, later
// ones removed, want appended when there is none; with absent, every one
// removed. It returns the lines as wanted (lines themselves when nothing
// is to change), the kind of change ("" for none) and the number, from
// 1, of the first line concerned. It never modifies lines.
func PutLine(lines []string, hits []int, want string, absent bool, same func(line string) bool) (out []string, kind string, at int) {
	switch {
	case absent && len(hits) == 0:
		return lines, "", 0
	case absent:
		return Without(lines, hits), Removed, hits[0] + 1
	case len(hits) == 0:
		return append(append(make([]string, 0, len(lines)+1), lines...), want), Added, len(lines) + 1
	case len(hits) == 1 && same(lines[hits[0]]):
		return lines, "", 0
	}
	out = Without(lines, hits[1:])
	out[hits[0]] = want
	return out, Replaced, hits[0] + 1
}
