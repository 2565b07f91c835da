package fileline

import (
	"fmt"
	"regexp"
	"slices"

	"github.com/reactive-ccm/ccm/resources/internal/textfile"
)

// edit is the wanted state of a file's lines.
type edit struct {
	ensure string
	line   string
	// match, after and before are nil when not set.
	match, after, before *regexp.Regexp
	replace              bool
	// block is nil in the line form.
	block      []string
	begin, end string
}

// change is what an edit does to a file's lines; the zero change leaves
// them as they are.
type change struct {
	// kind is textfile.Added, Replaced or Removed; "" for none.
	kind string
	// at is the number, from 1, of the first line added, replaced or
	// removed.
	at int
	// old are the lines replaced or removed (a block's without its
	// markers, when replaced).
	old []string
	// extra counts the later matches a replaced line removed.
	extra int
}

// apply returns lines as the edit wants them and what it changed; lines
// themselves, unchanged, when nothing is to change. It never modifies
// lines.
func (e *edit) apply(lines []string) ([]string, change, error) {
	if e.block != nil {
		return e.applyBlock(lines)
	}
	out, c := e.applyLine(lines)
	return out, c, nil
}

func (e *edit) applyLine(lines []string) ([]string, change) {
	hits := e.hits(lines)
	if e.ensure == Absent {
		if len(hits) == 0 {
			return lines, change{}
		}
		return textfile.Without(lines, hits), change{kind: textfile.Removed, at: hits[0] + 1, old: pick(lines, hits)}
	}
	switch {
	case len(hits) == 0:
		return e.insert(lines, []string{e.line})
	case e.match == nil || !e.replace:
		return lines, change{}
	case len(hits) == 1 && lines[hits[0]] == e.line:
		return lines, change{}
	}
	out := textfile.Without(lines, hits[1:])
	out[hits[0]] = e.line
	return out, change{kind: textfile.Replaced, at: hits[0] + 1, old: []string{lines[hits[0]]}, extra: len(hits) - 1}
}

// hits are the indexes of the lines matching match, or equal to line
// when there is no match.
func (e *edit) hits(lines []string) []int {
	var out []int
	for i, l := range lines {
		if e.match != nil && e.match.MatchString(l) || e.match == nil && l == e.line {
			out = append(out, i)
		}
	}
	return out
}

// insert adds add after the last line matching after, before the first
// line matching before, or at the end.
func (e *edit) insert(lines, add []string) ([]string, change) {
	at := len(lines)
	switch {
	case e.after != nil:
		for i := len(lines) - 1; i >= 0; i-- {
			if e.after.MatchString(lines[i]) {
				at = i + 1
				break
			}
		}
	case e.before != nil:
		if i := slices.IndexFunc(lines, e.before.MatchString); i >= 0 {
			at = i
		}
	}
	return slices.Concat(lines[:at], add, lines[at:]), change{kind: textfile.Added, at: at + 1}
}

func (e *edit) applyBlock(lines []string) ([]string, change, error) {
	b := slices.Index(lines, e.begin)
	end := -1
	if b >= 0 {
		if end = slices.Index(lines[b+1:], e.end); end < 0 {
			return nil, change{}, fmt.Errorf("%w (%q at line %d); put the end marker back or remove the begin marker", ErrNoEndMarker, e.begin, b+1)
		}
		end += b + 1
	}
	switch {
	case e.ensure == Absent && b < 0:
		return lines, change{}, nil
	case e.ensure == Absent:
		return slices.Concat(lines[:b], lines[end+1:]), change{kind: textfile.Removed, at: b + 1, old: lines[b : end+1]}, nil
	case b < 0:
		out, c := e.insert(lines, slices.Concat([]string{e.begin}, e.block, []string{e.end}))
		return out, c, nil
	case !e.replace || slices.Equal(lines[b+1:end], e.block):
		return lines, change{}, nil
	}
	out := slices.Concat(lines[:b+1], e.block, lines[end:])
	return out, change{kind: textfile.Replaced, at: b + 2, old: lines[b+1 : end]}, nil
}

// pick returns the lines at the indexes.
func pick(lines []string, at []int) []string {
	out := make([]string, len(at))
	for i, j := range at {
		out[i] = lines[j]
	}
	return out
}
