package debfixture

import (
	"os"
	"slices"
	"testing"
)

func TestNewNumberedBuildsEachPackage(t *testing.T) {
	names, r := NewNumbered(t, "numbered", 2)
	if want := []string{Prefix + "numbered-000", Prefix + "numbered-001"}; !slices.Equal(names, want) {
		t.Fatalf("names %q, want %q", names, want)
	}
	for _, n := range names {
		if _, err := os.Stat(r.Deb(t, n, "1.0-1")); err != nil {
			t.Fatal(err)
		}
	}
}
