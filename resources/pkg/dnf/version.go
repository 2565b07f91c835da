package dnf

import (
	"fmt"
	"strconv"
	"strings"
)

// CompareGeneric is the generic version ordering of the design documents
// (ported from Puppet's versioncmp): the strings are split into "-", ".",
// digit runs and other runs, compared left to right. A hyphen loses to
// anything, then a dot; digit runs compare as numbers unless one has a
// leading zero, when they compare as text; other runs compare as text,
// ignoring case. When every segment of the shorter string matches, the
// whole strings are compared as text. With ignoreTrailingZeroes, trailing
// ".0" segments before the first "-" are dropped first, so 1.0.0 equals 1.
func CompareGeneric(a, b string, ignoreTrailingZeroes bool) int {
	if ignoreTrailingZeroes {
		a, b = dropTrailingZeroes(a), dropTrailingZeroes(b)
	}
	as, bs := segments(a), segments(b)
	for i := 0; i < len(as) && i < len(bs); i++ {
		if c := compareSegment(as[i], bs[i]); c != 0 {
			return c
		}
	}
	return strings.Compare(a, b)
}

func compareSegment(a, b string) int {
	switch {
	case a == b:
		return 0
	case a == "-":
		return -1
	case b == "-":
		return 1
	case a == ".":
		return -1
	case b == ".":
		return 1
	}
	if isNumber(a) && isNumber(b) && a[0] != '0' && b[0] != '0' {
		return compareNumbers(a, b)
	}
	return strings.Compare(strings.ToUpper(a), strings.ToUpper(b))
}

// compareNumbers compares digit runs without leading zeros by length, then
// digit by digit, so that no run is too long to compare.
func compareNumbers(a, b string) int {
	if len(a) != len(b) {
		if len(a) < len(b) {
			return -1
		}
		return 1
	}
	return strings.Compare(a, b)
}

// segments splits s into "-", ".", digit runs and runs of anything else.
func segments(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		j := i + 1
		switch {
		case s[i] == '-' || s[i] == '.':
		case isDigit(s[i]):
			for j < len(s) && isDigit(s[j]) {
				j++
			}
		default:
			for j < len(s) && !isDigit(s[j]) && s[j] != '-' && s[j] != '.' {
				j++
			}
		}
		out = append(out, s[i:j])
		i = j
	}
	return out
}

// dropTrailingZeroes removes trailing ".0" segments (".0", ".00"...) from
// the part of v before its first hyphen.
func dropTrailingZeroes(v string) string {
	head, tail, hasTail := strings.Cut(v, "-")
	for {
		i := strings.LastIndexByte(head, '.')
		if i < 0 || i == len(head)-1 || strings.Trim(head[i+1:], "0") != "" {
			break
		}
		head = head[:i]
	}
	if hasTail {
		return head + "-" + tail
	}
	return head
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isNumber(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// evr is an rpm version: epoch, version and release.
type evr struct {
	epoch   int
	version string
	// release is "" when the version was written without one.
	release string
}

func parseEVR(s string) (evr, error) {
	var v evr
	rest := s
	if e, after, ok := strings.Cut(s, ":"); ok {
		n, err := strconv.Atoi(e)
		if err != nil || n < 0 {
			return v, fmt.Errorf("%w: %q: the epoch before ':' must be a number", ErrBadVersion, s)
		}
		v.epoch, rest = n, after
	}
	if i := strings.LastIndexByte(rest, '-'); i >= 0 {
		v.version, v.release = rest[:i], rest[i+1:]
	} else {
		v.version = rest
	}
	return v, nil
}

func (v evr) String() string {
	s := v.version
	if v.release != "" {
		s += "-" + v.release
	}
	if v.epoch != 0 {
		s = strconv.Itoa(v.epoch) + ":" + s
	}
	return s
}

// CompareVersions orders two rpm versions: by epoch (missing is 0), then
// version, then release when both have one.
func CompareVersions(a, b string) (int, error) {
	va, err := parseEVR(a)
	if err != nil {
		return 0, err
	}
	vb, err := parseEVR(b)
	if err != nil {
		return 0, err
	}
	switch {
	case va.epoch < vb.epoch:
		return -1, nil
	case va.epoch > vb.epoch:
		return 1, nil
	}
	if c := CompareGeneric(va.version, vb.version, false); c != 0 || va.release == "" || vb.release == "" {
		return c, nil
	}
	return CompareGeneric(va.release, vb.release, false), nil
}
