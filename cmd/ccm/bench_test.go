package main_test

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/watchers/inotify"
	"github.com/reactive-ccm/ccm/watchers/poll"
)

// fileManifest writes a manifest of n file resources under dir/files,
// spread over directories of 500, and returns its path.
func fileManifest(tb testing.TB, dir string, n int) string {
	tb.Helper()
	var b strings.Builder
	b.WriteString("- file:\n    - defaults: {owner: root, group: root, mode: \"0644\", ensure: present}\n")
	for d := 0; d*500 < n; d++ {
		fmt.Fprintf(&b, "    - %s/files/d%d: {ensure: directory, mode: \"0755\"}\n", dir, d)
	}
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "    - %s: {content: \"content of file %d\\n\"}\n", benchFile(dir, i), i)
	}
	if err := os.MkdirAll(filepath.Join(dir, "files"), 0o755); err != nil {
		tb.Fatal(err)
	}
	m := filepath.Join(dir, "manifest.yaml")
	if err := os.WriteFile(m, []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return m
}

func benchFile(dir string, i int) string {
	return fmt.Sprintf("%s/files/d%d/f%d", dir, i/500, i)
}

var sizes = []int{1000, 10000}

// BenchmarkParse measures compiling a manifest of file resources into a
// graph, per resource, to show that parsing is linear.
func BenchmarkParse(b *testing.B) {
	for _, n := range sizes {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			m := fileManifest(b, b.TempDir(), n)
			b.ResetTimer()
			for range b.N {
				if _, err := graph.Load([]string{m}, graph.Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*n), "µs/resource")
		})
	}
}

// BenchmarkOneShot runs `ccm run` on n file resources: the first run
// creates them, the second finds nothing to do. It reports wall times and
// the process's peak RSS, and the floor's times on the same layout: with
// an fsync per file (the first run's floor), with one syncfs for all
// (a group commit) and without syncing. On ext4 at 10,000 files it also
// reports how long `ccm run --watch` takes to converge the same files,
// against the one-shot run.
func BenchmarkOneShot(b *testing.B) {
	for _, fs := range filesystems {
		for _, n := range sizes {
			if fs.name == "tmpfs" && n > 1000 {
				continue
			}
			b.Run(fs.name+"/"+strconv.Itoa(n), func(b *testing.B) {
				for range b.N {
					benchOneShot(b, fs.dir, n)
				}
			})
		}
	}
}

func benchOneShot(b *testing.B, newDir func(testing.TB) string, n int) {
	// Small runs are repeated to steady the medians.
	rounds := max(1, 3000/n)
	var first, second, floorFirst, floorSecond, floorGroup, floorNoSync []time.Duration
	var peak [2]float64
	wrong := 0
	for range rounds {
		dir := newDir(b)
		m := fileManifest(b, dir, n)
		for i, run := range []string{"first", "second"} {
			start := time.Now()
			out, code, kib := peakRun(b, "run", m)
			if code != 0 {
				b.Fatalf("%s run: exit %d\n%s", run, code, out)
			}
			elapsed := time.Since(start)
			if i == 0 {
				first = append(first, elapsed)
				wrong += leftWrong(dir, n)
			} else {
				second = append(second, elapsed)
			}
			peak[i] = max(peak[i], float64(kib)/1024)
		}
		dir = newDir(b)
		floorFirst = append(floorFirst, floorOneShot(b, dir, n, "fsync"))
		floorSecond = append(floorSecond, floorOneShot(b, dir, n, "fsync"))
		floorGroup = append(floorGroup, floorOneShot(b, newDir(b), n, "syncfs"))
		floorNoSync = append(floorNoSync, floorOneShot(b, newDir(b), n, "nosync"))
	}
	report(b, "first-s", seconds(median(first)), seconds(median(floorFirst)))
	report(b, "second-s", seconds(median(second)), seconds(median(floorSecond)))
	report(b, "syncfs-first-s", seconds(median(first)), seconds(median(floorGroup)))
	b.ReportMetric(seconds(median(floorNoSync)), "floor-nosync-s")
	b.ReportMetric(float64(wrong), "ccm-left-wrong")
	b.ReportMetric(peak[0], "first-peak-MB")
	b.ReportMetric(peak[1], "second-peak-MB")
	if n >= 10000 {
		start := time.Now()
		p := startDaemon(b, "run", "--watch", fileManifest(b, newDir(b), n))
		startup := time.Since(start)
		stopProcess(p)
		b.ReportMetric(seconds(startup), "watch-startup-s")
		b.ReportMetric(startup.Seconds()/median(first).Seconds(), "x-oneshot-watch-startup")
	}
}

// BenchmarkWatch starts `ccm run --watch` on n files and measures:
// the time from a drifting write returning to the file being right again
// (p50, p99 over 200 drifts), RSS after them, idle CPU over 10 s, and idle CPU over
// 10 s while a neighbour creates, writes and deletes files directly in the
// temporary directory, an ancestor of every managed file.
func BenchmarkWatch(b *testing.B) {
	for _, n := range sizes {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for range b.N {
				benchWatch(b, n)
			}
		})
	}
}

func benchWatch(b *testing.B, n int) {
	dir := b.TempDir()
	m := fileManifest(b, dir, n)
	p := startDaemon(b, "run", "--watch", m)
	repairs, wrong := drifts(b, dir, n, 200)
	b.ReportMetric(float64(wrong), "left-wrong")
	b.ReportMetric(millis(repairs[len(repairs)/2]), "repair-p50-ms")
	b.ReportMetric(millis(repairs[len(repairs)*99/100]), "repair-p99-ms")
	// Once the drifts are repaired: what the daemon keeps, and what the
	// runtime has not yet given back of the start-up's garbage.
	b.ReportMetric(rssMB(b, p.Process.Pid), "rss-MB")
	b.ReportMetric(cpuPercent(b, p.Process.Pid, 10*time.Second), "idle-cpu-%")
	stop := busyNeighbour(b, os.TempDir())
	b.ReportMetric(cpuPercent(b, p.Process.Pid, 10*time.Second), "busy-tmp-cpu-%")
	b.ReportMetric(stop(), "neighbour-files/s")
}

// drifts overwrites count random files of the layout of n under dir, one
// at a time, and returns how long each took to be repaired, sorted, and
// how many were not repaired within driftBound.
func drifts(b *testing.B, dir string, n, count int) (repairs []time.Duration, wrong int) {
	b.Helper()
	hub := benchHub(b)
	repairs = make([]time.Duration, 0, count)
	for range count {
		idx := rand.IntN(n)
		path := benchFile(dir, idx)
		changed := make(chan struct{}, 1)
		cancel := hub.Watch(path, func() {
			select {
			case changed <- struct{}{}:
			default:
			}
		})
		if err := os.WriteFile(path, []byte("drifted\n"), 0o644); err != nil {
			b.Fatal(err)
		}
		written := time.Now()
		if waitContent(changed, path, fmt.Sprintf("content of file %d\n", idx)) {
			repairs = append(repairs, time.Since(written))
		} else {
			wrong++
		}
		cancel()
		time.Sleep(2 * time.Millisecond)
	}
	if len(repairs) == 0 {
		b.Fatalf("none of %d drifts under %s was repaired", count, dir)
	}
	slices.Sort(repairs)
	return repairs, wrong
}

// driftBound is how long a benchmark waits for a drift's repair before
// counting it left wrong.
const driftBound = 10 * time.Second

// benchHub is the benchmark's own inotify hub, to wait for repairs.
func benchHub(b *testing.B) *inotify.Hub {
	b.Helper()
	hub, err := inotify.New(b.Context(), slog.New(slog.DiscardHandler), func(path string, _ func()) func() {
		b.Errorf("cannot watch %s with inotify", path)
		return func() {}
	})
	if err != nil {
		b.Fatal(err)
	}
	return hub
}

// BenchmarkRepair measures, at 100 and 10,000 watched files on ext4 and
// tmpfs, the CPU time ccm spends per repair (from the drifting write's
// event to the re-check after the repair) and the repair latency, against
// the floor doing the same repairs.
func BenchmarkRepair(b *testing.B) {
	for _, fs := range filesystems {
		for _, n := range []int{100, 10000} {
			b.Run(fs.name+"/"+strconv.Itoa(n), func(b *testing.B) {
				for range b.N {
					benchRepair(b, fs.dir, n)
				}
			})
		}
	}
}

// driftsFlag is how many drifts each side of a BenchmarkRepair row
// repairs: more make its figures steadier on a busy machine.
var driftsFlag = flag.Int("drifts", 300, "drifts each side of a BenchmarkRepair row repairs")

func benchRepair(b *testing.B, newDir func(testing.TB) string, n int) {
	count := *driftsFlag
	measure := func(pid int, dir string) (cpu, p50 time.Duration, wrong int) {
		before := cpuTime(b, pid)
		lat, wrong := drifts(b, dir, n, count)
		return (cpuTime(b, pid) - before) / time.Duration(count), median(lat), wrong
	}
	dir := newDir(b)
	// Small layouts repair each file several times: no contest.
	p := startDaemon(b, "run", "--watch", "--contest-limit", "1000000", fileManifest(b, dir, n))
	cpu, p50, wrong := measure(p.Process.Pid, dir)
	stopProcess(p)
	dir = newDir(b)
	f := startFloor(b, dir, n)
	floorCPU, floorP50, floorWrong := measure(f.Process.Pid, dir)
	report(b, "cpu-µs/repair", float64(cpu.Microseconds()), float64(floorCPU.Microseconds()))
	report(b, "p50-ms", millis(p50), millis(floorP50))
	reportWrong(b, wrong, floorWrong)
}

// reportWrong adds the drifts ccm and the floor left unrepaired.
func reportWrong(b *testing.B, ccm, floor int) {
	b.ReportMetric(float64(ccm), "ccm-left-wrong")
	b.ReportMetric(float64(floor), "floor-left-wrong")
}

// BenchmarkNeighbour measures the CPU that a neighbour creating, writing
// and deleting 1,000 files a second costs ccm, against the floor watching
// the same directories: "in" a directory of 500 managed files, and
// "beside" the managed directories, in their parent. On a loaded machine
// the neighbour keeps a lower rate, not always the same for both sides,
// so each side's CPU is also given per file its neighbour made.
func BenchmarkNeighbour(b *testing.B) {
	const n = 1000
	for _, where := range []struct{ name, dir string }{{"in", "files/d0"}, {"beside", "files"}} {
		b.Run(where.name, func(b *testing.B) {
			for range b.N {
				dir := b.TempDir()
				p := startDaemon(b, "run", "--watch", fileManifest(b, dir, n))
				stop := busyNeighbour(b, filepath.Join(dir, where.dir))
				ccm := cpuShare(b, p.Process.Pid, 5*time.Second)
				rate := stop()
				wrong := leftWrong(dir, n)
				stopProcess(p)
				dir = b.TempDir()
				f := startFloor(b, dir, n)
				stop = busyNeighbour(b, filepath.Join(dir, where.dir))
				floor := cpuShare(b, f.Process.Pid, 5*time.Second)
				floorRate := stop()
				report(b, "cpu-%", ccm, floor)
				// A percent of a core is 10,000 µs a second.
				report(b, "cpu-µs/file", ccm*1e4/rate, floor*1e4/floorRate)
				reportWrong(b, wrong, leftWrong(dir, n))
				b.ReportMetric(min(rate, floorRate), "neighbour-files/s")
			}
		})
	}
}

// BenchmarkRenamedDir renames a directory of 100 managed files away, on
// ext4 and tmpfs, and measures how long until all 100 are back, against
// the floor.
func BenchmarkRenamedDir(b *testing.B) {
	benchRestore(b, func(dir string, r int) error {
		return os.Rename(filepath.Join(dir, "files", "d0"), filepath.Join(dir, "files", fmt.Sprintf("away%d", r)))
	})
}

// BenchmarkMassDelete deletes 100 managed files at once, on ext4 and
// tmpfs, one unlink after the other as fast as they go, and measures how
// long until all 100 are back, against the floor.
func BenchmarkMassDelete(b *testing.B) {
	benchRestore(b, func(dir string, _ int) error {
		for i := range restoreFiles {
			if err := os.Remove(benchFile(dir, i)); err != nil {
				return err
			}
		}
		return nil
	})
}

// restoreFiles is how many files the restore benchmarks manage.
const restoreFiles = 100

// benchRestore runs damage (round r, on the layout under dir) against ccm
// and the floor in turn, nine times each on each filesystem, and reports
// how long until every file was back (median and worst) and how many
// were left wrong.
func benchRestore(b *testing.B, damage func(dir string, r int) error) {
	const rounds = 9
	for _, fs := range filesystems {
		b.Run(fs.name, func(b *testing.B) {
			for range b.N {
				dir := fs.dir(b)
				p := startDaemon(b, "run", "--watch", "--contest-limit", "1000000", fileManifest(b, dir, restoreFiles))
				ccm, wrong := restore(b, dir, rounds, damage)
				stopProcess(p)
				dir = fs.dir(b)
				startFloor(b, dir, restoreFiles)
				floor, floorWrong := restore(b, dir, rounds, damage)
				report(b, "restore-ms", millis(median(ccm)), millis(median(floor)))
				report(b, "restore-max-ms", millis(slices.Max(ccm)), millis(slices.Max(floor)))
				reportWrong(b, wrong, floorWrong)
			}
		})
	}
}

// restore damages the layout under dir rounds times and returns how long
// it took each time until every file was back with its content, and how
// many files were still wrong after driftBound, over all rounds.
func restore(b *testing.B, dir string, rounds int, damage func(string, int) error) (took []time.Duration, wrong int) {
	b.Helper()
	hub := benchHub(b)
	changed := make(chan struct{}, 1)
	for i := range restoreFiles {
		defer hub.Watch(benchFile(dir, i), func() {
			select {
			case changed <- struct{}{}:
			default:
			}
		})()
	}
	for r := range rounds {
		start := time.Now()
		if err := damage(dir, r); err != nil {
			b.Fatal(err)
		}
		if left := waitAll(changed, dir, restoreFiles); left > 0 {
			wrong += left
			continue
		}
		took = append(took, time.Since(start))
	}
	if len(took) == 0 {
		b.Fatalf("the files under %s were never all restored", dir)
	}
	return took, wrong
}

// waitAll waits until all n files of the layout under dir hold their
// content, looking again each time changed fires, and returns how many
// did not within driftBound.
func waitAll(changed <-chan struct{}, dir string, n int) int {
	timeout := time.After(driftBound)
	next := 0
	for {
		for ; next < n; next++ {
			got, err := os.ReadFile(benchFile(dir, next))
			if err != nil || string(got) != fmt.Sprintf("content of file %d\n", next) {
				break
			}
		}
		if next == n {
			return 0
		}
		select {
		case <-changed:
		case <-timeout:
			return leftWrong(dir, n)
		}
	}
}

// busyNeighbour creates, writes and deletes a file in dir every
// millisecond, like other programs on a host, until stop is called; stop
// returns how many files it made per second.
func busyNeighbour(tb testing.TB, dir string) (stop func() float64) {
	path := filepath.Join(dir, fmt.Sprintf("ccm-bench-neighbour-%d", os.Getpid()))
	quit, done := make(chan struct{}), make(chan struct{})
	start, files := time.Now(), 0
	go func() {
		defer close(done)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-quit:
				return
			case <-tick.C:
			}
			if err := os.WriteFile(path, []byte("neighbour\n"), 0o644); err != nil {
				tb.Error(err)
				return
			}
			if err := os.Remove(path); err != nil {
				tb.Error(err)
				return
			}
			files++
		}
	}()
	return func() float64 {
		close(quit)
		<-done
		return float64(files) / time.Since(start).Seconds()
	}
}

// BenchmarkPolling measures the CPU that `--poll 10s` costs on n files.
func BenchmarkPolling(b *testing.B) {
	const n = 10000
	for range b.N {
		dir := b.TempDir()
		p := startDaemon(b, "run", "--watch", "--poll", "10s", fileManifest(b, dir, n))
		b.ReportMetric(cpuPercent(b, p.Process.Pid, 30*time.Second), "cpu-%")
	}
}

// startDaemon starts ccm and waits for its first convergence.
func startDaemon(tb testing.TB, args ...string) *exec.Cmd {
	tb.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "CCM_SOCKET="+socketPath(tb))
	stderr := startPiped(tb, cmd, cmd.StderrPipe, syscall.SIGTERM)
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "info      converged ") {
				close(ready)
				break
			}
		}
		for sc.Scan() {
		}
	}()
	select {
	case <-ready:
	case <-time.After(2 * time.Minute):
		tb.Fatal("ccm did not converge")
	}
	return cmd
}

// waitContent reads path each time changed fires until it holds want, and
// reports whether it did within driftBound, or does at the bound.
func waitContent(changed <-chan struct{}, path, want string) bool {
	timeout := time.After(driftBound)
	for {
		select {
		case <-changed:
			if got, err := os.ReadFile(path); err == nil && string(got) == want {
				return true
			}
		case <-timeout:
			// Left wrong means still wrong at the bound: a repair the
			// benchmark's own watch did not hear of counts as late
			// (its latency is the bound), not as a drift left.
			got, err := os.ReadFile(path)
			return err == nil && string(got) == want
		}
	}
}

// rssMB reads a process's resident set size.
func rssMB(tb testing.TB, pid int) float64 {
	return procKB(tb, fmt.Sprintf("/proc/%d/status", pid), "VmRSS:") / 1024
}

// procKB reads the figure, in kB, of the line of a /proc file that starts
// with key.
func procKB(tb testing.TB, file, key string) float64 {
	tb.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		tb.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == key {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb
		}
	}
	tb.Fatalf("no %s in %s", key, file)
	return 0
}

// cpuPercent measures a process's CPU use over d, in percent of one core.
func cpuPercent(tb testing.TB, pid int, d time.Duration) float64 {
	tb.Helper()
	ticks := func() float64 {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			tb.Fatal(err)
		}
		// Fields after the command name, which is in parentheses.
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
		u, _ := strconv.ParseFloat(f[11], 64)
		s, _ := strconv.ParseFloat(f[12], 64)
		return u + s
	}
	before := ticks()
	time.Sleep(d)
	// USER_HZ is 100 on Linux.
	return (ticks() - before) / 100 / d.Seconds() * 100
}

// BenchmarkGoroutines runs the watching engine in-process on n file
// resources and reports how many goroutines it holds once converged: the
// count must not grow with the number of resources.
func BenchmarkGoroutines(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for range b.N {
				base := runtime.NumGoroutine()
				g, err := graph.Load([]string{fileManifest(b, b.TempDir(), n)}, graph.Options{})
				if err != nil {
					b.Fatal(err)
				}
				ctx, cancel := context.WithCancel(b.Context())
				log := slog.New(slog.DiscardHandler)
				polls := poll.New(ctx)
				hub, err := inotify.New(ctx, log, func(_ string, fn func()) func() { return polls.Every(time.Second, fn) })
				if err != nil {
					b.Fatal(err)
				}
				settled := make(chan struct{}, 1)
				e := engine.New(g, engine.Options{Watch: true, Logger: log,
					Watchers:  engine.Watchers{Paths: hub.WatchPolled, Trees: hub.WatchTree, Poll: polls.Every},
					OnSettled: func(engine.State) { settled <- struct{}{} }})
				done := make(chan struct{})
				go func() { defer close(done); _, _ = e.Run(ctx) }()
				<-settled
				b.ReportMetric(float64(runtime.NumGoroutine()-base), "goroutines")
				cancel()
				<-done
			}
		})
	}
}
