package exec_test

import (
	"path/filepath"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// BenchmarkCheckCreatesSatisfied is the cost of an exec's poll once its
// creates marker exists: what every exec with creates costs at rest.
func BenchmarkCheckCreatesSatisfied(b *testing.B) {
	marker := filepath.Join(b.TempDir(), "marker")
	resourcetest.WriteFile(b, marker, "", 0o644)
	r := build(b, "/bin/true", "creates: "+marker+"\n")
	for b.Loop() {
		if st, err := r.Check(b.Context()); err != nil || !st.Desired {
			b.Fatalf("%+v %v", st, err)
		}
	}
}

// BenchmarkRefreshRunsTrue is the cost of one refresh of /bin/true: check,
// fork and exec in a new process group, wait, re-check.
func BenchmarkRefreshRunsTrue(b *testing.B) {
	r := build(b, "/bin/true", "refreshonly: true\n")
	for b.Loop() {
		if _, err := resources.Converge(b.Context(), r, true, false); err != nil {
			b.Fatal(err)
		}
	}
}
