package reload_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/reactive-ccm/ccm/engine/daemon/reload"
)

func TestInputsSumChangesOnlyWithContent(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "hiera.yaml")
	tree := filepath.Join(dir, "facts.d")
	write := func(p, body string) {
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(file, "data: {a: 1}\n")
	in := reload.Inputs{Files: []string{file, filepath.Join(dir, "absent.yaml")}, Trees: []string{tree}}
	last := in.Sum()
	steps := []struct {
		name   string
		do     func()
		reload bool
	}{
		{"nothing changed", func() {}, false},
		{"same content rewritten", func() { write(file, "data: {a: 1}\n") }, false},
		{"content changed", func() { write(file, "data: {a: 2}\n") }, true},
		{"missing file appears", func() { write(filepath.Join(dir, "absent.yaml"), "x: 1\n") }, true},
		{"tree appears", func() {
			if err := os.Mkdir(tree, 0o755); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"file added to the tree", func() { write(filepath.Join(tree, "10.yaml"), "a: 1\n") }, true},
		{"file in the tree changed", func() { write(filepath.Join(tree, "10.yaml"), "a: 2\n") }, true},
		{"tree unchanged", func() {}, false},
	}
	for _, s := range steps {
		s.do()
		sum := in.Sum()
		if got := !bytes.Equal(sum, last); got != s.reload {
			t.Errorf("%s: changed = %v, want %v", s.name, got, s.reload)
		}
		last = sum
	}
}
