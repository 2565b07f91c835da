package group_test

import (
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest/sandbox"
)

// TestMain runs the tests with /etc a tmpfs copy, where they add users
// and groups.
func TestMain(m *testing.M) {
	sandbox.Main(m, sandbox.Options{Copies: []string{"/etc"}})
}

// addUsers creates users without homes.
func addUsers(t *testing.T, names ...string) {
	t.Helper()
	for _, n := range names {
		sandbox.Command(t, "useradd", "--no-create-home", n)
		t.Cleanup(func() { sandbox.Command(t, "userdel", n) })
	}
}
