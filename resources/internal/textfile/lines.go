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
