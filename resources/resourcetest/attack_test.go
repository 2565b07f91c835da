package resourcetest_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

func TestMain(m *testing.M) { os.Exit(resourcetest.Main(m)) }

// A race stopped the moment it starts ends the attacker's loop, not the
// attacker: Race returns only once SIGTERM is handled.
func TestRaceStoppedAtOnce(t *testing.T) {
	home := resourcetest.NobodyHome(t)
	a, b := filepath.Join(home, "a"), filepath.Join(home, "b")
	for _, p := range []string{a, b} {
		resourcetest.AsNobody(t, "write", p, filepath.Base(p))
	}
	for range 3 {
		if n := resourcetest.Race(t, "exchange", a, b)(); n < 0 {
			t.Fatalf("acted %d times", n)
		}
	}
}
