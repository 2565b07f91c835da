package accounts

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	"github.com/reactive-ccm/ccm/resources/internal/textfile"
)

// The local account databases.
const (
	Passwd  = "/etc/passwd"
	Shadow  = "/etc/shadow"
	Groups  = "/etc/group"
	GShadow = "/etc/gshadow"
)

// ValidName is a user or group name as the shadow tools accept it.
var ValidName = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]{0,31}\$?$`)

// Databases are every file whose change may mean an account drifted.
var Databases = []string{Passwd, Shadow, Groups, GShadow}

// records reads a colon-separated database and returns the fields of
// each record; a missing file has none.
func records(path string) ([][]string, error) {
	f, err := textfile.Read(safepath.Policy{}, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out [][]string
	for _, l := range textfile.Lines(f.Content) {
		if l == "" || l[0] == '#' || l[0] == '+' || l[0] == '-' {
			continue
		}
		out = append(out, strings.Split(l, ":"))
	}
	return out, nil
}

// find returns the record of name in the database at path, nil when
// there is none.
func find(path, name string, fields int) ([]string, error) {
	recs, err := records(path)
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		if r[0] != name {
			continue
		}
		if len(r) < fields {
			return nil, fmt.Errorf("%s: the record of %s has %d fields, want %d", path, name, len(r), fields)
		}
		return r, nil
	}
	return nil, nil
}

// list splits a comma-separated list; empty is none.
func list(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// number parses a numeric field of path's record of name.
func number(path, name, field, s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("%s: %s of %s is %q, not a number", path, field, name, s)
	}
	return n, nil
}
