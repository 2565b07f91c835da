package group_test

import (
	"os/exec"
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest/sandbox"
)

// TestMain runs the tests with /etc a tmpfs copy, where they add users
// and groups.
func TestMain(m *testing.M) {
	sandbox.Main(m, sandbox.Options{Copies: []string{"/etc"}})
}

// run runs an account tool in the sandbox, as an administrator would.
func run(t *testing.T, name string, args ...string) {
	t.Helper()
	sandbox.Require(t)
	if out, err := exec.Command(name, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v: %s", name, args, err, out)
	}
}

// addUsers creates users without homes.
func addUsers(t *testing.T, names ...string) {
	t.Helper()
	for _, n := range names {
		run(t, "useradd", "--no-create-home", n)
		t.Cleanup(func() { run(t, "userdel", n) })
	}
}
