package exec_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

func TestMain(m *testing.M) { os.Exit(resourcetest.Main(m)) }

// A user who links a directory on the way to creates at a place where
// the marker exists must not stop the command from running, nor, linking
// elsewhere, make it run again.
func TestAttackCreatesThroughALink(t *testing.T) {
	home := resourcetest.NobodyHome(t)
	elsewhere := t.TempDir()
	resourcetest.WriteFile(t, filepath.Join(elsewhere, "done"), "", 0o644)
	resourcetest.AsNobody(t, "symlink", elsewhere, filepath.Join(home, "state"))
	r := build(t, "/bin/true", "creates: "+filepath.Join(home, "state", "done")+"\n")
	if _, err := r.Check(t.Context()); !errors.Is(err, safepath.ErrSymlink) {
		t.Fatalf("error %v, want a refusal", err)
	}
	allowed := build(t, "/bin/true", "creates: "+filepath.Join(home, "state", "done")+"\nfollow_symlinks: ["+filepath.Join(home, "state")+"]\n")
	if st, err := allowed.Check(t.Context()); err != nil || !st.Desired {
		t.Fatalf("with the link allowed: %+v %v", st, err)
	}
}
