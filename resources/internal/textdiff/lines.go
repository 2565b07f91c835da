package textdiff

import "strings"

// op is one line of an edit script.
type op struct {
	kind byte // ' ' kept, '-' removed, '+' added
	line string
}

// maxEdits bounds the edit search: beyond it the changed middle is shown
// as removed and added whole, which is correct if not minimal, and keeps
// the search's memory under a few megabytes.
const maxEdits = 500

// split cuts text into lines, each without its newline; a last line
// without a newline is marked so the diff can say so.
func split(text string) []string {
	if text == "" {
		return nil
	}
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// script returns the edits that turn a into b: the common prefix and
// suffix kept, the middle by Myers' algorithm.
func script(a, b []string) []op {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ops := make([]op, 0, len(a)+len(b))
	for _, l := range a[:pre] {
		ops = append(ops, op{' ', l})
	}
	ops = append(ops, middle(a[pre:len(a)-suf], b[pre:len(b)-suf])...)
	for _, l := range a[len(a)-suf:] {
		ops = append(ops, op{' ', l})
	}
	return ops
}

// middle is Myers' O(ND) shortest edit script, or a whole replacement
// when more than maxEdits edits are needed.
func middle(a, b []string) []op {
	n, m := len(a), len(b)
	limit := min(n+m, maxEdits)
	off := limit + 1
	v := make([]int, 2*limit+3)
	var trace [][]int
	for d := 0; d <= limit; d++ {
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			x := v[off+k+1]
			if k != -d && (k == d || v[off+k-1] >= v[off+k+1]) {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(a, b, trace, off, d)
			}
		}
	}
	return replace(a, b)
}

// backtrack walks the saved frontiers back from the end to recover the
// edits.
func backtrack(a, b []string, trace [][]int, off, d int) []op {
	x, y := len(a), len(b)
	var rev []op
	for ; d > 0; d-- {
		v := trace[d]
		k := x - y
		prevK := k + 1
		if k != -d && (k == d || v[off+k-1] >= v[off+k+1]) {
			prevK = k - 1
		}
		px := v[off+prevK]
		py := px - prevK
		for x > px && y > py {
			x, y = x-1, y-1
			rev = append(rev, op{' ', a[x]})
		}
		if x > px {
			x--
			rev = append(rev, op{'-', a[x]})
		} else {
			y--
			rev = append(rev, op{'+', b[y]})
		}
	}
	for x > 0 && y > 0 {
		x, y = x-1, y-1
		rev = append(rev, op{' ', a[x]})
	}
	out := make([]op, len(rev))
	for i, o := range rev {
		out[len(rev)-1-i] = o
	}
	return out
}

func replace(a, b []string) []op {
	ops := make([]op, 0, len(a)+len(b))
	for _, l := range a {
		ops = append(ops, op{'-', l})
	}
	for _, l := range b {
		ops = append(ops, op{'+', l})
	}
	return ops
}
