package file_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// build makes a file resource for path from props, with dir as the
// manifest's directory.
func build(t testing.TB, path, props string) resources.Resource {
	t.Helper()
	return resourcetest.MustBuild(t, "file", path, props, filepath.Dir(path)).Resource
}

// stat returns the raw stat of path, failing the test when it is missing.
func stat(t testing.TB, path string) syscall.Stat_t {
	t.Helper()
	var st syscall.Stat_t
	if err := syscall.Lstat(path, &st); err != nil {
		t.Fatal(err)
	}
	return st
}

func mustMkdir(t testing.TB, path string, mode os.FileMode) {
	t.Helper()
	if err := os.Mkdir(path, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

// entries lists a directory's names, to see that no temporary file stayed.
func entries(t testing.TB, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(des))
	for i, de := range des {
		names[i] = de.Name()
	}
	return names
}
