package safepath

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// TestWalkUnderASwappingAttacker: uid 65534 swaps, in its own home, a
// directory and a link to a root-only directory, again and again, while
// root reads a file through the name. Every read gets the directory's
// file or refuses the link; none reads through it, and none fails for
// meeting a component that changed between its open and its look.
func TestWalkUnderASwappingAttacker(t *testing.T) {
	bothWays(t, func(t *testing.T) {
		home := resourcetest.NobodyHome(t)
		secret := t.TempDir()
		resourcetest.WriteFile(t, filepath.Join(secret, "file"), "secret", 0o600)
		resourcetest.AsNobody(t, "mkdir", filepath.Join(home, "d"))
		resourcetest.AsNobody(t, "write", filepath.Join(home, "d", "file"), "good")
		resourcetest.AsNobody(t, "symlink", secret, filepath.Join(home, "l"))
		stop := resourcetest.Race(t, "exchange", filepath.Join(home, "d"), filepath.Join(home, "l"))
		read, refused := 0, 0
		// Until a refusal too: the attacker takes SIGTERM only once it
		// acts (resourcetest.Race returns before it is ready).
		for i := 0; i < 1000 || refused == 0; i++ {
			b, err := Policy{}.ReadFile(filepath.Join(home, "d", "file"), 100)
			switch {
			case err == nil && string(b) == "good":
				read++
			case errors.Is(err, ErrSymlink):
				refused++
			default:
				t.Fatalf("read %q, %v: want the directory's file or a refused link", b, err)
			}
		}
		if swaps := stop(); swaps == 0 {
			t.Fatal("the attacker never swapped")
		}
		t.Logf("%d reads, %d refusals", read, refused)
	})
}
