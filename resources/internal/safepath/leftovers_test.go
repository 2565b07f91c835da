package safepath

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

func TestTempNames(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{".file.ccm-123", true},
		{".a.b.ccm-0", true},
		{"..ccm-1", true},
		{"file.ccm-123", false},
		{".file.ccm-", false},
		{".file.ccm-12a", false},
		{".ccm-123", false},
		{".file.ccm-1.ccm-x", false},
		{".file", false},
	}
	for _, tt := range tests {
		if got := isTempName(tt.name); got != tt.want {
			t.Errorf("isTempName(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
	long := strings.Repeat("n", maxTempBase+1)
	if p := tempPrefix(long); p != "."+long[:maxTempBase]+".ccm-" {
		t.Errorf("the prefix of a long name is %d bytes", len(p))
	}
}

// TestTakeLeavesOtherBases: a listing gives each base its own leftovers
// only, once; a base that is another's prefix ("a" of "a.b") takes none
// of the longer one's.
func TestTakeLeavesOtherBases(t *testing.T) {
	l := &listing{names: []string{".a.ccm-1", ".a.b.ccm-2", ".a.ccm-3", ".ab.ccm-4", ".a.ccm-5.ccm-6"}}
	if got := l.take(tempPrefix("a")); !slices.Equal(got, []string{".a.ccm-1", ".a.ccm-3"}) {
		t.Fatalf("take(a) = %q", got)
	}
	if got := l.take(tempPrefix("a")); got != nil {
		t.Fatalf("taken twice: %q", got)
	}
	if got := l.take(tempPrefix("a.b")); !slices.Equal(got, []string{".a.b.ccm-2"}) {
		t.Fatalf("take(a.b) = %q", got)
	}
	if got := l.take(tempPrefix("a.ccm-5")); !slices.Equal(got, []string{".a.ccm-5.ccm-6"}) {
		t.Fatalf("take(a.ccm-5) = %q", got)
	}
	l.done.Store(true)
	if l.clean() {
		t.Fatal("clean with .ab's leftover still listed")
	}
	l.take(tempPrefix("ab"))
	if !l.clean() {
		t.Fatal("not clean once every leftover was taken")
	}
}

// TestRemoveLeftoversByPath: the Policy form lists a directory once; a
// later call for a clean directory opens nothing, even one gone since,
// and only regular files are removed.
func TestRemoveLeftoversByPath(t *testing.T) {
	dir := tree(t)
	real := filepath.Join(dir, "real")
	resourcetest.WriteFile(t, filepath.Join(real, ".file.ccm-1"), "killed run", 0o644)
	mkdir(t, filepath.Join(real, ".file.ccm-2"))
	resourcetest.FIFO(t, filepath.Join(real, ".file.ccm-3"))
	if err := (Policy{}).RemoveLeftovers(filepath.Join(real, "file")); err != nil {
		t.Fatal(err)
	}
	if got := list(t, real); !slices.Equal(got, []string{".file.ccm-2", ".file.ccm-3", "file"}) {
		t.Fatalf("left %q, want the directory, the FIFO and the file", got)
	}
	if err := (Policy{}).RemoveLeftovers(filepath.Join(dir, "missing", "file")); err != nil {
		t.Fatalf("a missing directory: %v", err)
	}
	clean := filepath.Join(dir, "clean")
	mkdir(t, clean)
	if err := (Policy{}).RemoveLeftovers(filepath.Join(clean, "file")); err != nil {
		t.Fatal(err)
	}
	// Listed and clean: a leftover appearing later is not looked for.
	resourcetest.WriteFile(t, filepath.Join(clean, ".file.ccm-9"), "x", 0o644)
	if err := (Policy{}).RemoveLeftovers(filepath.Join(clean, "file")); err != nil || !resourcetest.Exists(filepath.Join(clean, ".file.ccm-9")) {
		t.Fatalf("a clean directory was listed again: %v", err)
	}
	if os.Geteuid() != 0 {
		return
	}
	// Nor is it opened again: a hostile link in its place since is not met.
	if err := os.Rename(clean, clean+".old"); err != nil {
		t.Fatal(err)
	}
	symlink(t, clean+".old", clean, nobody)
	if err := (Policy{}).RemoveLeftovers(filepath.Join(clean, "file")); err != nil {
		t.Fatalf("a clean directory was opened again: %v", err)
	}
}
