package archive

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/internal/safepath"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

func TestMain(m *testing.M) { os.Exit(resourcetest.Main(m)) }

// A user's link on the way to the archive, extract_parent or creates
// must neither receive a root-owned download nor an extraction.
func TestAttackLinksOnTheWay(t *testing.T) {
	srv := serve(t, fixture(t, "tar.gz", fixtureFiles), nil)
	for _, tc := range []struct{ name, archive, parent, creates string }{
		{"archive", "link/app.tar.gz", "opt", "opt/app/bin/app"},
		{"extract_parent", "app.tar.gz", "link/opt", "opt/app/bin/app"},
		{"creates", "app.tar.gz", "opt", "link/app/bin/app"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := resourcetest.NobodyHome(t)
			victim := t.TempDir()
			resourcetest.AsNobody(t, "symlink", victim, filepath.Join(home, "link"))
			props := fmt.Sprintf("url: %s/app.tar.gz\nextract_parent: %s\ncreates: %s",
				srv.URL, filepath.Join(home, tc.parent), filepath.Join(home, tc.creates))
			a := buildArchive(t, filepath.Join(home, tc.archive), props)
			if _, err := resources.Converge(t.Context(), a, false, false); !errors.Is(err, safepath.ErrSymlink) {
				t.Fatalf("error %v, want a refusal", err)
			}
			if left, err := os.ReadDir(victim); err != nil || len(left) > 0 {
				t.Fatalf("the link's target now holds %v (%v)", left, err)
			}
		})
	}
}
