package mount_test

import (
	"os/exec"
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest/sandbox"
)

// TestMain runs the tests in a mount namespace of their own, with /etc a
// tmpfs copy for fstab: what they mount vanishes with the namespace.
func TestMain(m *testing.M) {
	sandbox.Main(m, sandbox.Options{Copies: []string{"/etc"}})
}

// run runs a tool in the sandbox, as an administrator would.
func run(t *testing.T, name string, args ...string) string {
	t.Helper()
	sandbox.Require(t)
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v: %s", name, args, err, out)
	}
	return string(out)
}
