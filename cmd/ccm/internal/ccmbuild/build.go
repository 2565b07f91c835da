// Package ccmbuild builds the ccm binary for the tests that run it as a
// process, once per test binary.
package ccmbuild

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Build builds the ccm command into a new temporary directory named
// after prefix, with the race detector when race is set and go build's
// flags, and returns the binary's path; the caller removes
// filepath.Dir(bin) when done. The compiler's output goes to the test's
// stderr.
func Build(prefix string, race bool, flags ...string) (bin string, err error) {
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		return "", err
	}
	bin = filepath.Join(dir, "ccm")
	args := append([]string{"build", "-o", bin}, flags...)
	if race {
		args = append(args, "-race")
	}
	build := exec.Command("go", append(args, "github.com/reactive-ccm/ccm/cmd/ccm")...)
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return "", fmt.Errorf("building ccm: %w", err)
	}
	return bin, nil
}
