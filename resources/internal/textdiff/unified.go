package textdiff

import (
	"fmt"
	"strings"
)

// context is how many unchanged lines surround each change.
const context = 3

// unified formats ops as a unified diff of at most MaxLines lines after
// the header.
func unified(ops []op) string {
	var b strings.Builder
	b.WriteString("--- observed\n+++ desired\n")
	written := 0
	for _, h := range hunks(ops) {
		oldStart, oldLen, newStart, newLen := h.span(ops)
		fmt.Fprintf(&b, "@@ -%s +%s @@\n", rangeOf(oldStart, oldLen), rangeOf(newStart, newLen))
		for _, o := range ops[h.from:h.to] {
			if written == MaxLines {
				fmt.Fprintf(&b, "… diff cut after %d lines\n", MaxLines)
				return b.String()
			}
			b.WriteByte(o.kind)
			b.WriteString(o.line)
			if !strings.HasSuffix(o.line, "\n") {
				b.WriteString("\n\\ No newline at end of file\n")
			}
			written++
		}
	}
	return b.String()
}

// hunk is a run of ops: changes with their context.
type hunk struct{ from, to int }

// hunks groups changes closer than twice the context into one hunk.
func hunks(ops []op) []hunk {
	var out []hunk
	for i := 0; i < len(ops); i++ {
		if ops[i].kind == ' ' {
			continue
		}
		from := max(0, i-context)
		end := i
		for j := i; j < len(ops) && j <= end+2*context; j++ {
			if ops[j].kind != ' ' {
				end = j
			}
		}
		to := min(len(ops), end+1+context)
		if n := len(out); n > 0 && from <= out[n-1].to {
			out[n-1].to = to
		} else {
			out = append(out, hunk{from, to})
		}
		i = end
	}
	return out
}

// span returns the hunk's 1-based start line and length on each side.
func (h hunk) span(ops []op) (oldStart, oldLen, newStart, newLen int) {
	for _, o := range ops[:h.from] {
		if o.kind != '+' {
			oldStart++
		}
		if o.kind != '-' {
			newStart++
		}
	}
	for _, o := range ops[h.from:h.to] {
		if o.kind != '+' {
			oldLen++
		}
		if o.kind != '-' {
			newLen++
		}
	}
	return oldStart + 1, oldLen, newStart + 1, newLen
}

// rangeOf is a hunk header range; an empty side starts before its line.
func rangeOf(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start-1)
	}
	if n == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}
