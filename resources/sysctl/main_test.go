package sysctl_test

import (
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest/sandbox"
)

// TestMain runs the tests in a network namespace of their own, whose
// per-namespace parameters (net.ipv4.*) they may change, with /etc a
// tmpfs copy for the drop-ins.
func TestMain(m *testing.M) {
	sandbox.Main(m, sandbox.Options{Net: true, Copies: []string{"/etc"}})
}
