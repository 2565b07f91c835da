package user_test

import (
	"os/exec"
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest/sandbox"
)

// TestMain runs the tests with /etc and /home tmpfs copies, where they
// add users and homes.
func TestMain(m *testing.M) {
	sandbox.Main(m, sandbox.Options{Copies: []string{"/etc", "/home"}})
}

// run runs an account tool in the sandbox, as an administrator would.
func run(t *testing.T, name string, args ...string) {
	t.Helper()
	sandbox.Require(t)
	if out, err := exec.Command(name, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v: %s", name, args, err, out)
	}
}
