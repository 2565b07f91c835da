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
			victim := resourcetest.Victim(t)
			resourcetest.AsNobody(t, "symlink", victim, filepath.Join(home, "link"))
			props := fmt.Sprintf("url: %s/app.tar.gz\nextract_parent: %s\ncreates: %s",
				srv.URL, filepath.Join(home, tc.parent), filepath.Join(home, tc.creates))
			a := buildArchive(t, filepath.Join(home, tc.archive), props)
			if _, err := resources.Converge(t.Context(), a, false, false); !errors.Is(err, safepath.ErrSymlink) {
				t.Fatalf("error %v, want a refusal", err)
			}
			resourcetest.Untouched(t, victim)
		})
	}
}

// files is a fixture whose directories a user who owns extract_parent can
// replace by links: the archive has no entry for them.
var files = map[string]string{"VERSION": "1\n", "app/bin/app": "#!/bin/sh\n", "app/etc/app.conf": "root's config\n"}

// A link the owner of extract_parent planted where the archive has a
// directory must not take the extraction elsewhere: it is replaced.
func TestAttackLinkInsideExtractParent(t *testing.T) {
	for _, kind := range []string{"tar.gz", "zip"} {
		t.Run(kind, func(t *testing.T) {
			srv := serve(t, fixture(t, kind, files), nil)
			home := resourcetest.NobodyHome(t)
			victim := resourcetest.Victim(t)
			opt := filepath.Join(home, "opt")
			resourcetest.AsNobody(t, "mkdir", opt)
			resourcetest.AsNobody(t, "symlink", victim, filepath.Join(opt, "app"))
			a := buildArchive(t, filepath.Join(t.TempDir(), "app."+kind),
				fmt.Sprintf("url: %s/app.%s\nextract_parent: %s\ncreates: %s", srv.URL, kind, opt, filepath.Join(opt, "VERSION")))
			resourcetest.Converge(t.Context(), t, a, false, false)
			resourcetest.Untouched(t, victim)
			if !resourcetest.FileIs(filepath.Join(opt, "app", "etc", "app.conf"), "root's config\n") {
				t.Fatal("the archive was not extracted in place of the link")
			}
		})
	}
}

// The owner of extract_parent swaps a directory the archive fills with a
// link, again and again, during extractions.
func TestAttackExtractParentSwappedDuringExtractions(t *testing.T) {
	srv := serve(t, fixture(t, "tar.gz", files), nil)
	home := resourcetest.NobodyHome(t)
	victim := resourcetest.Victim(t)
	opt := filepath.Join(home, "opt")
	resourcetest.AsNobody(t, "mkdir", opt)
	resourcetest.AsNobody(t, "mkdir", filepath.Join(opt, "app"))
	resourcetest.AsNobody(t, "symlink", victim, filepath.Join(opt, "swap"))
	marker := filepath.Join(opt, "VERSION")
	a := buildArchive(t, filepath.Join(t.TempDir(), "app.tar.gz"),
		fmt.Sprintf("url: %s/app.tar.gz\nextract_parent: %s\ncreates: %s", srv.URL, opt, marker))
	extractions := 0
	swaps := resourcetest.Racing(t, func() {
		extractions++
		if err := os.Remove(marker); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if _, err := resources.Converge(t.Context(), a, false, false); err != nil && !errors.Is(err, ErrExtract) {
			t.Fatalf("unexpected error: %v", err)
		}
	}, "exchange", filepath.Join(opt, "app"), filepath.Join(opt, "swap"))
	t.Logf("%d swaps, %d extractions", swaps, extractions)
	resourcetest.Untouched(t, victim)
}
