package fileline_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/reactive-ccm/ccm/engine/enginetest"
	"github.com/reactive-ccm/ccm/resources/resourcetest"

	_ "github.com/reactive-ccm/ccm/resources/file"
)

// TestWatchRepairsDrift: two lines of one file, whose attributes a file
// resource manages, are repaired after the host edits them, removes the
// file or replaces it, and what the host added is kept.
func TestWatchRepairsDrift(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sysconfig")
	resourcetest.WriteFile(t, path, "# host\nA=0\n", 0o644)
	w := enginetest.Start(t, fmt.Sprintf(`
- file:
    - %[1]s:
        ensure: present
        owner: root
        group: root
        mode: "0644"
- file_line:
    - a:
        path: %[1]s
        line: A=1
        match: ^A=
    - block:
        path: %[1]s
        block: |
          B=1
          C=1
`, path), enginetest.Options{})
	w.Changed(t, "file_line#a")
	w.Changed(t, "file_line#block")
	w.Settle(t)
	want := "# host\nA=1\n# BEGIN CCM block\nB=1\nC=1\n# END CCM block\n"
	if got := resourcetest.ReadFile(t, path); got != want {
		t.Fatalf("converged to %q, want %q", got, want)
	}
	edit := func(content string) func(*testing.T) {
		return func(t *testing.T) { resourcetest.WriteFile(t, path, content, 0o644) }
	}
	w.RepairsEach(t, "file_line#a", []enginetest.Drift{
		{Name: "edited line", Make: edit("# host\nA=2\n# BEGIN CCM block\nB=1\nC=1\n# END CCM block\n"), Want: want},
		{Name: "edited block, host line added", ID: "file_line#block", Make: edit("# host\nA=1\n# BEGIN CCM block\nB=2\n# END CCM block\nD=1\n"),
			Want: "# host\nA=1\n# BEGIN CCM block\nB=1\nC=1\n# END CCM block\nD=1\n"},
	}, func(t *testing.T, d enginetest.Drift) {
		if got := resourcetest.ReadFile(t, path); got != d.Want {
			t.Errorf("repaired to %q, want %q", got, d.Want)
		}
	})
	t.Run("file removed", func(t *testing.T) {
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
		w.Changed(t, "file#"+path)
		w.Changed(t, "file_line#a")
		w.Changed(t, "file_line#block")
		w.Settle(t)
	})
}
