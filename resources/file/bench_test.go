package file_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
)

// BenchmarkCheckUnchanged is the cost of noticing that a 1 KiB file with
// named owner and group has not drifted: the cost of every watch event and
// every anti-entropy pass.
func BenchmarkCheckUnchanged(b *testing.B) {
	path := filepath.Join(b.TempDir(), "f")
	props := "ensure: present\nowner: root\ngroup: root\nmode: \"0644\"\ncontent: " + strings.Repeat("x", 1024) + "\n"
	r := build(b, path, props)
	if _, err := resources.Converge(b.Context(), r, false, false); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		st, err := r.Check(b.Context())
		if err != nil || !st.Desired {
			b.Fatalf("%+v %v", st, err)
		}
	}
}

// BenchmarkApplyCreate is the cost of creating a missing 1 KiB file:
// check, atomic write with fsync, re-check. The removal that makes it
// missing again is included.
func BenchmarkApplyCreate(b *testing.B) {
	path := filepath.Join(b.TempDir(), "f")
	props := "ensure: present\nowner: root\ngroup: root\nmode: \"0644\"\ncontent: " + strings.Repeat("x", 1024) + "\n"
	r := build(b, path, props)
	for b.Loop() {
		if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
			b.Fatal(err)
		}
		out, err := resources.Converge(b.Context(), r, false, false)
		if err != nil || !out.Change.Changed {
			b.Fatalf("%+v %v", out, err)
		}
	}
}
