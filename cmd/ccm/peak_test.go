package main_test

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// gnuTime is GNU time, which .ci/test-deps.sh installs.
const gnuTime = "/usr/bin/time"

// peakRun runs ccm with args and returns its combined output, its exit
// code and its peak resident set in KiB. The kernel's figure for a child
// (wait4's ru_maxrss) starts from the resident set of the process it was
// forked from, this test binary, itself hundreds of MiB under -race; GNU
// time, a small process in between, reports ccm's own.
func peakRun(tb testing.TB, args ...string) (out []byte, code, kib int) {
	tb.Helper()
	return peakRunIn(tb, nil, args...)
}

// peakRunIn is peakRun with stdin as ccm's standard input.
func peakRunIn(tb testing.TB, stdin io.Reader, args ...string) (out []byte, code, kib int) {
	tb.Helper()
	if _, err := os.Stat(gnuTime); err != nil {
		tb.Skipf("%s is missing (.ci/test-deps.sh installs it): %v", gnuTime, err)
	}
	report := filepath.Join(tb.TempDir(), "peak")
	cmd := exec.Command(gnuTime, append([]string{"-f", "%M", "-o", report, bin}, args...)...)
	cmd.Stdin = stdin
	out, _ = cmd.CombinedOutput()
	b, err := os.ReadFile(report)
	if err != nil {
		tb.Fatalf("ccm %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	// After "Command exited with non-zero status N" when it did.
	lines := strings.Fields(string(b))
	kib, err = strconv.Atoi(lines[len(lines)-1])
	if err != nil {
		tb.Fatalf("ccm %s: GNU time reported %q", strings.Join(args, " "), b)
	}
	return out, cmd.ProcessState.ExitCode(), kib
}
