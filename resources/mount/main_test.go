package mount_test

import (
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest/sandbox"
)

// TestMain runs the tests in a mount namespace of their own, with /etc a
// tmpfs copy for fstab: what they mount vanishes with the namespace.
func TestMain(m *testing.M) {
	sandbox.Main(m, sandbox.Options{Copies: []string{"/etc"}})
}
