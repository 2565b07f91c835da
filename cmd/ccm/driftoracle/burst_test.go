package driftoracle_test

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var roundsFlag = flag.Int("rounds", 10, "rounds of each burst of TestBurstLosesNothing, each with a fresh daemon")

// bursts are what an operator's script does to a directory of managed
// files at once.
var bursts = []struct {
	name string
	do   func(dir string, files []*resource) error
}{
	{"delete loop", func(_ string, files []*resource) error {
		for _, f := range files {
			if err := os.Remove(f.path); err != nil {
				return err
			}
		}
		return nil
	}},
	{"rm -rf", func(dir string, _ []*resource) error {
		// rm fails ("Directory not empty") when ccm restores a file
		// before rm is done: that is the point.
		_ = exec.Command("rm", "-rf", dir).Run()
		return nil
	}},
	{"mv", func(dir string, _ []*resource) error { return os.Rename(dir, dir+".away") }},
}

// TestBurstLosesNothing is issue 22's burst: a fresh daemon manages 200
// files in one directory; they are deleted in a tight loop, or the
// directory is removed with rm -rf or moved away, and every file must be
// back within the bound. The names are of every length from 8 to 207
// bytes, so the burst's events fill several reads of the kernel's queue.
func TestBurstLosesNothing(t *testing.T) {
	for _, fs := range []string{"tmpfs", "disk"} {
		for _, b := range bursts {
			t.Run(fs+"/"+b.name, func(t *testing.T) {
				for round := range *roundsFlag {
					burstRound(t, config{fs: fs}, fmt.Sprintf("the %s of round %d", b.name, round+1), b.do)
				}
				t.Logf("%d rounds, %d files restored, none lost", *roundsFlag, 200**roundsFlag)
			})
		}
	}
}

// burstRound runs one round with a fresh daemon, and fails the test
// unless every file is restored.
func burstRound(t *testing.T, c config, what string, burst func(dir string, files []*resource) error) {
	t.Helper()
	o := prepare(t, c)
	o.replay = fmt.Sprintf("go test ./cmd/ccm/driftoracle -count=1 -run '%s$'", t.Name())
	dir := filepath.Join(o.base, "burst")
	rs := []*resource{{kind: dirKind, path: dir, mode: 0o755, owner: owners[0], group: groups[0]}}
	for i := range 200 {
		name := fmt.Sprintf("f%03d-", i) + strings.Repeat("x", 3+i)
		rs = append(rs, &resource{kind: fileKind, path: filepath.Join(dir, name), mode: 0o644,
			owner: owners[0], group: groups[0], content: []byte(name + "\n")})
	}
	o.launch(rs)
	defer o.d.stop()
	if bad := o.settle(time.Now(), nil); len(bad) > 0 {
		o.fail("startup", time.Now(), nil, bad)
	}
	began := time.Now()
	if err := burst(dir, rs[1:]); err != nil {
		t.Fatal(err)
	}
	if bad := o.settle(began, nil); len(bad) > 0 {
		o.fail(what, began, nil, bad)
	}
}
