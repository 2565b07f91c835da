package accounts_test

import (
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest/sandbox"
)

// TestMain runs the tests in a sandbox whose /etc is a private copy: they
// write the account databases the lookups read.
func TestMain(m *testing.M) {
	sandbox.Main(m, sandbox.Options{Copies: []string{"/etc"}})
}
