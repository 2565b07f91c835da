package graph

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/reactive-ccm/ccm/resources"
)

// yamlLine splits a yaml.v3 syntax error into its line and message. It
// and byteProblem are compiled when a manifest fails to parse, not each
// time ccm starts.
var yamlLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): (.*)$`) })

// byteProblem matches yaml.v3's complaints about the bytes themselves,
// which name no line, or the line of the token around them.
var byteProblem = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`UTF-8|UTF-16|control characters`) })

// syntaxError turns a yaml.v3 syntax error, which names a line at best,
// into file:line:col: message. A tab in the indentation, YAML's most
// common trap, is said as such and pointed at; a byte YAML refuses is
// pointed at.
func syntaxError(file string, src []byte, err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	// yaml.v3 names no line when the error is on the first.
	line := 1
	if mm := yamlLine().FindStringSubmatch(err.Error()); mm != nil {
		line, _ = strconv.Atoi(mm[1])
		msg = mm[2]
	}
	if byteProblem().MatchString(msg) {
		if l, c, ok := badByte(src); ok {
			return resources.Errorf(resources.Pos{File: file, Line: l, Col: c}, "invalid YAML: %s", msg)
		}
	}
	lines := strings.Split(string(src), "\n")
	if l, c, ok := tabIndent(lines, line); ok {
		return resources.Errorf(resources.Pos{File: file, Line: l, Col: c},
			"invalid YAML: a tab in the indentation; YAML indents with spaces only (the parser said: %s)", msg)
	}
	return resources.Errorf(resources.Pos{File: file, Line: line, Col: column(lines, line, msg)}, "invalid YAML: %s", msg)
}

// badByte finds the first byte YAML refuses: one that is not UTF-8, or a
// control character other than tab, newline and carriage return.
func badByte(src []byte) (line, col int, ok bool) {
	line, col = 1, 1
	for len(src) > 0 {
		r, size := utf8.DecodeRune(src)
		if (r == utf8.RuneError && size == 1) || !printable(r) {
			return line, col, true
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		src = src[size:]
	}
	return 0, 0, false
}

// printable reports whether YAML accepts r in a stream (YAML 1.2, 5.1),
// as yaml.v3 checks it.
func printable(r rune) bool {
	switch {
	case r == '\t', r == '\n', r == '\r', r == 0x85, r == 0xFEFF:
		return true
	case r >= 0x20 && r <= 0x7E, r >= 0xA0 && r <= 0xD7FF, r >= 0xE000 && r <= 0xFFFD:
		return true
	}
	return r >= 0x10000 && r <= utf8.MaxRune
}

// tabIndent finds a tab in the indentation near line: the parser reports
// where it gave up, a few lines after the tab at most.
func tabIndent(lines []string, line int) (l, col int, ok bool) {
	for i := min(line, len(lines)-1); i >= max(0, line-5); i-- {
		text := lines[i]
		indent := text[:len(text)-len(strings.TrimLeft(text, " \t"))]
		if j := strings.IndexByte(indent, '\t'); j >= 0 && len(indent) < len(text) {
			return i + 1, j + 1, true
		}
	}
	return 0, 0, false
}

// column points into line at what the parser complained about: the
// second colon of `key: value: more`, else the line's first character.
func column(lines []string, line int, msg string) int {
	if line < 1 || line > len(lines) {
		return 1
	}
	text := lines[line-1]
	if strings.HasPrefix(msg, "mapping values are not allowed") {
		if first := strings.Index(text, ": "); first >= 0 {
			if second := strings.Index(text[first+2:], ":"); second >= 0 {
				return first + 2 + second + 1
			}
		}
	}
	return len(text) - len(strings.TrimLeft(text, " ")) + 1
}
