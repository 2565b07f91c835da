package driftoracle_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/cmd/ccm/internal/ccmbuild"
)

var (
	durationFlag = flag.Duration("duration", 2*time.Minute, "time the oracle runs, shared by its configurations")
	seedFlag     = flag.Uint64("seed", 0, "seed of the trees and bursts (0: from the clock); a failure prints it")
	binFlag      = flag.String("bin", "", "run this ccm binary instead of building ./cmd/ccm (to bisect, or to see a reverted fix fail)")
)

// bin is the ccm binary, built from ./cmd/ccm once.
var bin string

func TestMain(m *testing.M) {
	flag.Parse()
	if *binFlag != "" {
		bin = *binFlag
		os.Exit(m.Run())
	}
	var err error
	bin, err = ccmbuild.Build("ccm-driftoracle-bin-", raceEnabled)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(filepath.Dir(bin))
	os.Exit(code)
}
