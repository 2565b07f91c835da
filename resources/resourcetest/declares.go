package resourcetest

import (
	"fmt"
	"testing"
)

// Declared is one set of properties and what a resource built from them
// tells the engine: its ensure, whether it may run beside its neighbours,
// the paths it owns and uses, the files it claims and what it watches,
// written as "ensure E independent B owns [..] uses [..] claims [..]
// paths [..] mounts [..]".
type Declared struct {
	Props, Want string
}

// Declares builds a resource of type typ named name from each case's
// props and fails the test unless what it declares reads as the case's
// Want.
func Declares(t *testing.T, typ, name string, cases []Declared) {
	t.Helper()
	for _, c := range cases {
		inst := MustBuild(t, typ, name, c.Props, t.TempDir())
		w := inst.Resource.Watch()
		got := fmt.Sprintf("ensure %s independent %v owns %v uses %v claims %v paths %v mounts %v",
			inst.Ensure, inst.Independent, inst.Owns, inst.Uses, inst.Claims, w.Paths, w.Mounts)
		if got != c.Want {
			t.Errorf("%q:\n%s\nwant\n%s", c.Props, got, c.Want)
		}
	}
}
