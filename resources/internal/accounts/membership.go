package accounts

import (
	"slices"
	"strings"

	"github.com/reactive-ccm/ccm/resources"
)

// Membership compares the names an account database holds (a group's
// members, a user's groups) with the names wanted: add are wanted and
// not held; extra, only when exact, are held and not wanted.
func Membership(have, want []string, exact bool) (add, extra []string) {
	for _, n := range want {
		if !slices.Contains(have, n) {
			add = append(add, n)
		}
	}
	for _, n := range have {
		if exact && !slices.Contains(want, n) {
			extra = append(extra, n)
		}
	}
	return add, extra
}

// MembershipDifference shows the names found and wanted under property,
// noting the names to add (+) and to remove (-).
func MembershipDifference(property string, have, add, extra []string) resources.Difference {
	want := slices.DeleteFunc(slices.Clone(have), func(n string) bool { return slices.Contains(extra, n) })
	d := resources.Differs(property, strings.Join(have, ","), strings.Join(append(want, add...), ","))
	var note []string
	if len(add) > 0 {
		note = append(note, "+"+strings.Join(add, ",+"))
	}
	if len(extra) > 0 {
		note = append(note, "-"+strings.Join(extra, ",-"))
	}
	d.Note = strings.Join(note, " ")
	return d
}
