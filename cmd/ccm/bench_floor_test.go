package main_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// The floor is testdata/floor/floor.c: a C program doing the least work
// for what a benchmark asks of ccm (the same inotify reads, the same
// fsync-then-rename writes, no more). Benchmarks run it in the same run
// as ccm and report ccm's figures as ratios to it, which mean something
// on a machine whose other load changes both alike.

var floorBin = sync.OnceValues(func() (string, error) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		return "", fmt.Errorf("no C compiler to build the floor: %w", err)
	}
	dir, err := os.MkdirTemp("", "ccm-floor-")
	if err != nil {
		return "", err
	}
	out := filepath.Join(dir, "floor")
	if b, err := exec.Command(cc, "-O2", "-o", out, filepath.Join("testdata", "floor", "floor.c")).CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the floor: %w\n%s", err, b)
	}
	return out, nil
})

// floor returns the floor program, or skips the benchmark without one.
func floor(tb testing.TB) string {
	tb.Helper()
	bin, err := floorBin()
	if err != nil {
		tb.Skip(err)
	}
	return bin
}

// startFloor runs `floor watch` on the layout of n files under dir and
// waits until it has converged and armed its watches.
func startFloor(tb testing.TB, dir string, n int) *exec.Cmd {
	tb.Helper()
	return startReady(tb, exec.Command(floor(tb), "watch", dir, strconv.Itoa(n)))
}

// startReady starts a helper process and waits until it prints "ready";
// it is killed at the end of the benchmark.
func startReady(tb testing.TB, cmd *exec.Cmd) *exec.Cmd {
	tb.Helper()
	cmd.Stderr = os.Stderr
	line, err := bufio.NewReader(startPiped(tb, cmd, cmd.StdoutPipe, os.Kill)).ReadString('\n')
	if err != nil || line != "ready\n" {
		tb.Fatalf("%s did not start: %q %v", cmd.Path, line, err)
	}
	return cmd
}

// floorOneShot runs `floor oneshot` in mode (fsync, syncfs or nosync) and
// returns its wall time.
func floorOneShot(tb testing.TB, dir string, n int, mode string) time.Duration {
	tb.Helper()
	start := time.Now()
	if out, err := exec.Command(floor(tb), "oneshot", dir, strconv.Itoa(n), mode).CombinedOutput(); err != nil {
		tb.Fatalf("floor: %v\n%s", err, out)
	}
	return time.Since(start)
}

// cpuTime returns the CPU time a process has used so far, summed over its
// threads in nanoseconds (schedstat), finer than the clock ticks of
// /proc/PID/stat.
func cpuTime(tb testing.TB, pid int) time.Duration {
	tb.Helper()
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	if err != nil || len(tasks) == 0 {
		tb.Fatalf("no threads of %d: %v", pid, err)
	}
	var total time.Duration
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue // the thread exited
		}
		f := strings.Fields(string(b))
		ns, _ := strconv.ParseInt(f[0], 10, 64)
		total += time.Duration(ns)
	}
	return total
}

// cpuShare measures a process's CPU use over d, in percent of one core.
func cpuShare(tb testing.TB, pid int, d time.Duration) float64 {
	tb.Helper()
	before := cpuTime(tb, pid)
	time.Sleep(d)
	return float64(cpuTime(tb, pid)-before) / float64(d) * 100
}

// tmpfsDir returns a new directory on tmpfs (/dev/shm), removed at the
// end, or skips the benchmark when there is none.
func tmpfsDir(tb testing.TB) string {
	tb.Helper()
	var st unix.Statfs_t
	if err := unix.Statfs("/dev/shm", &st); err != nil || st.Type != unix.TMPFS_MAGIC {
		tb.Skip("no tmpfs at /dev/shm")
	}
	dir, err := os.MkdirTemp("/dev/shm", "ccm-bench-")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// filesystems are where the benchmarks that compare filesystems run.
var filesystems = []struct {
	name string
	dir  func(testing.TB) string
}{
	{"ext4", func(tb testing.TB) string { return tb.TempDir() }},
	{"tmpfs", tmpfsDir},
}

// report adds ccm's and the floor's figure of a row and their ratio.
func report(b *testing.B, unit string, ccm, floor float64) {
	b.ReportMetric(ccm, "ccm-"+unit)
	b.ReportMetric(floor, "floor-"+unit)
	if floor > 0 {
		b.ReportMetric(ccm/floor, "x-floor-"+unit)
	}
}

func median(ds []time.Duration) time.Duration {
	ds = slices.Clone(ds)
	slices.Sort(ds)
	return ds[len(ds)/2]
}

func seconds(d time.Duration) float64 { return d.Seconds() }

func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// stopProcess ends a daemon the benchmark started.
func stopProcess(cmd *exec.Cmd) {
	_ = cmd.Process.Signal(syscall.SIGTERM)
}
