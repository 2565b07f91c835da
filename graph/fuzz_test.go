package graph_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/graph"
	_ "github.com/reactive-ccm/ccm/resources/all"
)

// FuzzLoad feeds the manifest loader arbitrary text with the real
// resource types: it must not panic, and whatever it refuses it refuses
// with a position. The seed corpus is testdata/fuzz/FuzzLoad; `make
// test` fuzzes it for a short time.
func FuzzLoad(f *testing.F) {
	if b, err := os.ReadFile("../examples/quickstart.yaml"); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		path := filepath.Join(t.TempDir(), "m.yaml")
		if err := os.WriteFile(path, src, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := graph.Load([]string{path}, graph.Options{})
		if err != nil && !strings.HasPrefix(err.Error(), path) {
			t.Fatalf("an error without a position: %v", err)
		}
	})
}
