package driftoracle_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/cmd/ccm/internal/ccmbuild"
	"github.com/reactive-ccm/ccm/resources/resourcetest/sandbox"
)

var (
	durationFlag = flag.Duration("duration", 2*time.Minute, "time the oracle runs, shared by its configurations")
	seedFlag     = flag.Uint64("seed", 0, "seed of the trees and bursts (0: from the clock); a failure prints it")
	binFlag      = flag.String("bin", "", "run this ccm binary instead of building ./cmd/ccm (to bisect, or to see a reverted fix fail)")
)

// bin is the ccm binary, built from ./cmd/ccm once.
var bin string

// binEnv hands the binary built to the tests, which run in a sandbox: a
// copy of this test binary.
const binEnv = "CCM_DRIFTORACLE_BIN"

// TestMain builds the binary, then runs the tests in a sandbox (private
// mount and network namespaces, tmpfs copies of /etc, /home and /media) where
// the kinds that change state the host shares (users, groups, keys,
// kernel parameters, mounts) join the tree; without one (not root, no
// unshare) only the file kinds run.
func TestMain(m *testing.M) {
	flag.Parse()
	bin = os.Getenv(binEnv)
	if *binFlag != "" {
		bin = *binFlag
	}
	built := bin == ""
	if built {
		var err error
		if bin, err = ccmbuild.Build("ccm-driftoracle-bin-", raceEnabled); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Setenv(binEnv, bin)
	}
	code := sandbox.Run(m, sandbox.Options{Net: true, Copies: []string{"/etc", "/home", "/media"}})
	if built {
		os.RemoveAll(filepath.Dir(bin))
	}
	os.Exit(code)
}
