package main_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// BenchmarkDirtyNeighbour runs a small one-shot (a directory and two
// files, like the quickstart's) on the machine's own filesystem while
// another program writes a large file there, leaving up to gigabytes of
// dirty page cache: ccm must make its own two files durable without
// waiting for the neighbour's data, as the floor's fsync of each file
// does. It reports the medians of paired rounds, the dirty page cache
// when each run started, and the files each run left wrong; and the same
// runs without the neighbour (quiet), so that what a run costs of its
// own (a Go program's start, under the machine's load) is told from what
// the neighbour's data costs it (dirty-over-quiet).
func BenchmarkDirtyNeighbour(b *testing.B) {
	const n, rounds = 2, 5
	// Each side's run (ccm's, the floor's) of the layout of n in a new
	// directory.
	ccmRun := func() (string, func()) {
		dir := b.TempDir()
		m := fileManifest(b, dir, n)
		return dir, func() {
			if out, code, _ := peakRun(b, "run", m); code != 0 {
				b.Fatalf("ccm run: exit %d\n%s", code, out)
			}
		}
	}
	floorRun := func() (string, func()) {
		dir := b.TempDir()
		return dir, func() { floorOneShot(b, dir, n, "fsync") }
	}
	sides := [2]func() (string, func()){ccmRun, floorRun}
	for range b.N {
		var dirty, quiet [2][]time.Duration
		var dirtyMBs []float64
		var wrong [2]int
		for r := range rounds {
			// Alternate which goes first, so neither always meets the
			// disk the other left busy.
			for i := range 2 {
				side := (i + r) % 2
				dir, run := sides[side]()
				d := underDirtyNeighbour(b, dir, run)
				dirty[side] = append(dirty[side], d.took)
				dirtyMBs = append(dirtyMBs, d.dirtyMB)
				wrong[side] += leftWrong(dir, n)
				dir, run = sides[side]()
				start := time.Now()
				run()
				quiet[side] = append(quiet[side], time.Since(start))
				wrong[side] += leftWrong(dir, n)
			}
		}
		report(b, "dirty-ms", millis(median(dirty[0])), millis(median(dirty[1])))
		report(b, "quiet-ms", millis(median(quiet[0])), millis(median(quiet[1])))
		b.ReportMetric(median(dirty[0]).Seconds()/median(quiet[0]).Seconds(), "ccm-dirty-over-quiet")
		b.ReportMetric(median(dirty[1]).Seconds()/median(quiet[1]).Seconds(), "floor-dirty-over-quiet")
		b.ReportMetric(millis(slices.Max(dirty[0])), "ccm-dirty-max-ms")
		b.ReportMetric(millis(slices.Max(dirty[1])), "floor-dirty-max-ms")
		b.ReportMetric(medianOf(dirtyMBs), "dirty-MB")
		reportWrong(b, wrong[0], wrong[1])
	}
}

// dirtyRun is one run under a neighbour's dirty page cache.
type dirtyRun struct {
	took    time.Duration
	dirtyMB float64
}

// neighbourWrite is how much the neighbour writes (unless stopped first),
// and dirtyWarm how much it has written before the run starts.
const neighbourWrite, dirtyWarm = 2 << 30, 768 << 20

// underDirtyNeighbour starts a neighbour writing a large file in dir,
// waits until it has written dirtyWarm, times run, then stops the
// neighbour and deletes its file, which drops its dirty pages unwritten.
func underDirtyNeighbour(b *testing.B, dir string, run func()) dirtyRun {
	b.Helper()
	path := filepath.Join(dir, "neighbour.data")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	warm, quit, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		chunk := bytes.Repeat([]byte("neighbour data\n"), 1<<16)
		written := int64(0)
		for written < neighbourWrite {
			select {
			case <-quit:
				done <- nil
				return
			default:
			}
			n, err := f.Write(chunk)
			if err != nil {
				done <- err
				return
			}
			if written < dirtyWarm && written+int64(n) >= dirtyWarm {
				close(warm)
			}
			written += int64(n)
		}
		done <- nil
	}()
	select {
	case <-warm:
	case err := <-done:
		b.Fatalf("the neighbour stopped before writing %d MB: %v", dirtyWarm>>20, err)
	}
	d := dirtyRun{dirtyMB: dirtyMB(b)}
	start := time.Now()
	run()
	d.took = time.Since(start)
	close(quit)
	if err := <-done; err != nil {
		b.Fatal(err)
	}
	if err := errors.Join(f.Close(), os.Remove(path)); err != nil {
		b.Fatal(err)
	}
	return d
}

// dirtyMB reads the machine's dirty page cache.
func dirtyMB(tb testing.TB) float64 {
	return procKB(tb, "/proc/meminfo", "Dirty:") / 1024
}

// leftWrong counts the files of the layout of n under dir that do not
// hold their content.
func leftWrong(dir string, n int) int {
	wrong := 0
	for i := range n {
		got, err := os.ReadFile(benchFile(dir, i))
		if err != nil || string(got) != fmt.Sprintf("content of file %d\n", i) {
			wrong++
		}
	}
	return wrong
}

func medianOf(fs []float64) float64 {
	fs = slices.Clone(fs)
	slices.Sort(fs)
	return fs[len(fs)/2]
}
