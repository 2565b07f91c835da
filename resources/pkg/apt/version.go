package apt

import (
	"fmt"
	"strconv"
	"strings"
)

// version is a parsed Debian version: [epoch:]upstream[-revision].
type version struct {
	epoch    int
	upstream string
	revision string
}

// CompareVersions orders two Debian versions the way dpkg does (Debian
// Policy 5.6.12): -1 when a is older than b, 0 when they are equal, 1 when
// a is newer.
func CompareVersions(a, b string) (int, error) {
	va, err := parseVersion(a)
	if err != nil {
		return 0, err
	}
	vb, err := parseVersion(b)
	if err != nil {
		return 0, err
	}
	return va.compare(vb), nil
}

// parseVersion splits s at the first colon (epoch) and the last hyphen
// (revision). A trailing hyphen with nothing after it belongs to the
// upstream version.
func parseVersion(s string) (version, error) {
	var v version
	rest := s
	if e, after, ok := strings.Cut(s, ":"); ok {
		n, err := strconv.Atoi(e)
		if err != nil || n < 0 || e == "" || strings.Trim(e, "0123456789") != "" {
			return v, fmt.Errorf("%w: %q: the epoch before ':' must be a number", ErrBadVersion, s)
		}
		v.epoch, rest = n, after
	}
	if i := strings.LastIndexByte(rest, '-'); i >= 0 && i < len(rest)-1 {
		v.upstream, v.revision = rest[:i], rest[i+1:]
	} else {
		v.upstream = rest
	}
	if v.upstream == "" || !isAlnum(v.upstream[0]) || !allIn(v.upstream, ".+~:-") {
		return v, fmt.Errorf("%w: %q: the upstream version must start with a letter or digit and hold only letters, digits and . + ~ : -", ErrBadVersion, s)
	}
	if !allIn(v.revision, ".+~") {
		return v, fmt.Errorf("%w: %q: the revision after the last '-' may hold only letters, digits and . + ~", ErrBadVersion, s)
	}
	return v, nil
}

func (v version) compare(o version) int {
	switch {
	case v.epoch < o.epoch:
		return -1
	case v.epoch > o.epoch:
		return 1
	}
	if c := compareParts(v.upstream, o.upstream); c != 0 {
		return c
	}
	return compareParts(v.revision, o.revision)
}

// compareParts is dpkg's verrevcmp: the strings are read as alternating
// runs of non-digits, compared character by character by order, and runs
// of digits, compared as numbers.
func compareParts(a, b string) int {
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		for (i < len(a) && !isDigit(a[i])) || (j < len(b) && !isDigit(b[j])) {
			if oa, ob := order(a, i), order(b, j); oa != ob {
				return sign(oa - ob)
			}
			i, j = i+1, j+1
		}
		for i < len(a) && a[i] == '0' {
			i++
		}
		for j < len(b) && b[j] == '0' {
			j++
		}
		firstDiff := 0
		for i < len(a) && isDigit(a[i]) && j < len(b) && isDigit(b[j]) {
			if firstDiff == 0 {
				firstDiff = int(a[i]) - int(b[j])
			}
			i, j = i+1, j+1
		}
		switch {
		case i < len(a) && isDigit(a[i]):
			return 1
		case j < len(b) && isDigit(b[j]):
			return -1
		case firstDiff != 0:
			return sign(firstDiff)
		}
	}
	return 0
}

// order ranks the character at s[i] within a non-digit run: '~' before the
// end of the string, the end (and digits) before letters, letters before
// every other character.
func order(s string, i int) int {
	if i >= len(s) {
		return 0
	}
	c := s[i]
	switch {
	case c == '~':
		return -1
	case isDigit(c):
		return 0
	case isAlpha(c):
		return int(c)
	}
	return int(c) + 256
}

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlpha(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }
func isAlnum(c byte) bool { return isDigit(c) || isAlpha(c) }

func allIn(s, extra string) bool {
	for i := 0; i < len(s); i++ {
		if !isAlnum(s[i]) && !strings.ContainsRune(extra, rune(s[i])) {
			return false
		}
	}
	return true
}
