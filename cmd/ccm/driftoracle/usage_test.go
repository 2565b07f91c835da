package driftoracle_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// The daemon's resource use is sampled once it is idle after each burst,
// and judged at the end of the run, once the fights the bursts started
// have calmed:
//
//   - descriptors and goroutines return to their value at startup: the
//     only ones a burst adds are the fanotify marks that name the writer
//     of a resource repaired twice within the contest window, one per
//     directory, dropped when the resource is left alone for the window;
//   - threads stay within what the engine may block in system calls at
//     once (its workers, and the members of its commit groups), plus the
//     runtime's own: Go keeps a thread it made for a blocked call, so
//     their number is the high-water mark of that concurrency, not a leak;
//   - the heap in use ends within twice its highest value in the first
//     half of the run, plus 16 MiB: a leak grows with the bursts.

// gauges names the columns of usage.rows.
var gauges = []string{"descriptors", "threads", "goroutines", "heap bytes"}

const (
	descriptors = iota
	threads
	goroutines
	heap
)

// usage holds the samples of a run, one row per sample.
type usage struct {
	rows [][]float64
}

// read samples d's use now.
func read(t *testing.T, d *daemon) []float64 {
	t.Helper()
	pid := d.cmd.Process.Pid
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		t.Fatalf("counting the daemon's descriptors: %v", err)
	}
	n, err := threadCount(pid)
	if err != nil {
		t.Fatal(err)
	}
	m, err := d.metrics("go_goroutines", "go_memstats_heap_inuse_bytes")
	if err != nil {
		t.Fatalf("scraping the daemon's metrics: %v\n%s", err, d.logTail(20))
	}
	return []float64{float64(len(fds)), n, m["go_goroutines"], m["go_memstats_heap_inuse_bytes"]}
}

func (u *usage) sample(t *testing.T, d *daemon) { u.rows = append(u.rows, read(t, d)) }

func threadCount(pid int) (float64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "Threads:"); ok {
			return strconv.ParseFloat(strings.TrimSpace(v), 64)
		}
	}
	return 0, fmt.Errorf("no thread count in /proc/%d/status", pid)
}

// check judges the run's samples, then waits for the fights to calm and
// for descriptors and goroutines to return to their startup values.
func (u *usage) check(t *testing.T, d *daemon, c config) {
	t.Helper()
	start := u.rows[0]
	if most := slices.Max(u.column(threads)); most > threadBound(c) {
		t.Errorf("%.0f threads, more than the %.0f the engine may block at once: %v", most, threadBound(c), u.column(threads))
	}
	if len(u.rows) >= 4 {
		steady := slices.Max(u.column(heap)[:len(u.rows)/2])
		if last := u.rows[len(u.rows)-1][heap]; last > 2*steady+16<<20 {
			t.Errorf("the heap grew from a steady %.0f to %.0f bytes: %v", steady, last, u.column(heap))
		}
	}
	deadline := time.Now().Add(calmBound)
	now := read(t, d)
	for (now[descriptors] > start[descriptors] || now[goroutines] > start[goroutines]) && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
		now = read(t, d)
	}
	if now[descriptors] > start[descriptors] || now[goroutines] > start[goroutines] {
		t.Errorf("%v after the bursts calmed: %.0f descriptors and %.0f goroutines, against %.0f and %.0f at startup; open now:\n%s",
			calmBound, now[descriptors], now[goroutines], start[descriptors], start[goroutines], openFiles(d.cmd.Process.Pid))
	}
	t.Logf("resource use: %s", u.summary(now))
}

// contestWindow is the daemon's --contest-window: how long a resource
// must be left alone before the marks naming its writer go.
const contestWindow = 2 * time.Second

// calmBound bounds the wait for the last burst's fights to calm (and,
// under the race detector, for the polls a loaded machine runs late).
const calmBound = 5 * contestWindow * slowdown

// threadBound is how many threads the daemon may have: its workers and
// its commit groups' members blocked at once, plus the runtime's own
// (one running per CPU, the monitor, a template, and a few idle).
func threadBound(c config) float64 {
	workers := max(8, 2*runtime.NumCPU())
	if c.workers1 {
		workers = 1
	}
	var lim unix.Rlimit
	groupCommit := 256
	if unix.Getrlimit(unix.RLIMIT_NOFILE, &lim) == nil {
		groupCommit = int(max(1, min(256, lim.Cur/4/3)))
	}
	return float64(workers + groupCommit + runtime.NumCPU() + 8)
}

func (u *usage) column(i int) []float64 {
	out := make([]float64, len(u.rows))
	for j, row := range u.rows {
		out[j] = row[i]
	}
	return out
}

func (u *usage) summary(end []float64) string {
	var parts []string
	for i, g := range gauges {
		parts = append(parts, fmt.Sprintf("%s %.0f at startup, at most %.0f, %.0f at the end", g, u.rows[0][i], slices.Max(u.column(i)), end[i]))
	}
	return strings.Join(parts, "; ")
}

// openFiles lists what pid's descriptors point to.
func openFiles(pid int) string {
	dir := fmt.Sprintf("/proc/%d/fd", pid)
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		target, _ := os.Readlink(filepath.Join(dir, e.Name()))
		out = append(out, "  "+e.Name()+" -> "+target)
	}
	return strings.Join(out, "\n")
}
