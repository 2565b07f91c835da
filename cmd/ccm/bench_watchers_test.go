package main_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/reactive-ccm/ccm/watchers/inotify"
)

// BenchmarkWatcherLibrary justifies ccm's own inotify layer against
// fsnotify, the library the project's owner named: two watcher processes
// watch the same 1,000 managed paths, one through ccm's hub and one
// through fsnotify (each parent directory and every ancestor, since it
// cannot watch a directory for its own fate only), and do nothing but
// filter events by name. It reports the CPU each costs while a neighbour
// churns files beside the managed tree (in the temporary directory, an
// ancestor) and among the managed files (in a watched directory).
func BenchmarkWatcherLibrary(b *testing.B) {
	const n = 1000
	for range b.N {
		dir := b.TempDir()
		floorOneShot(b, dir, n, "nosync")
		paths := make([]string, n)
		for i := range paths {
			paths[i] = benchFile(dir, i)
		}
		for _, place := range []struct{ name, dir string }{
			{"ancestor", os.TempDir()},
			{"watched", filepath.Join(dir, "files", "d0")},
		} {
			for _, lib := range []string{"ccm", "fsnotify"} {
				w := startWatcher(b, lib, paths)
				stop := busyNeighbour(b, place.dir)
				b.ReportMetric(cpuShare(b, w.Process.Pid, 5*time.Second), lib+"-"+place.name+"-cpu-%")
				stop()
				stopProcess(w)
				_ = w.Wait()
			}
		}
	}
}

const (
	watcherEnv      = "CCM_BENCH_WATCHER"
	watcherPathsEnv = "CCM_BENCH_WATCHER_PATHS"
)

// startWatcher runs this test binary as a watcher of paths through lib
// and waits until its watches are armed.
func startWatcher(b *testing.B, lib string, paths []string) *exec.Cmd {
	b.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), watcherEnv+"="+lib, watcherPathsEnv+"="+strings.Join(paths, ":"))
	return startReady(b, cmd)
}

// runWatcher watches paths through lib, counting the events about them,
// until it is killed.
func runWatcher(lib string, paths []string) int {
	var err error
	switch lib {
	case "ccm":
		err = watchWithHub(paths)
	case "fsnotify":
		err = watchWithFsnotify(paths)
	default:
		err = fmt.Errorf("unknown watcher library %q", lib)
	}
	fmt.Fprintln(os.Stderr, err)
	return 1
}

func watchWithHub(paths []string) error {
	hub, err := inotify.New(context.Background(), slog.New(slog.DiscardHandler), func(path string, _ func()) func() {
		return func() {}
	})
	if err != nil {
		return err
	}
	seen := 0
	for _, p := range paths {
		hub.Watch(p, func() { seen++ })
	}
	fmt.Println("ready")
	select {}
}

// watchWithFsnotify watches what the hub watches, each parent and every
// ancestor, with fsnotify's one mask, and filters events by name.
func watchWithFsnotify(paths []string) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	wanted := map[string]bool{}
	dirs := map[string]bool{}
	for _, p := range paths {
		wanted[p] = true
		for d := filepath.Dir(p); !dirs[d]; d = filepath.Dir(d) {
			dirs[d] = true
			if err := w.Add(d); err != nil {
				return err
			}
			if d == "/" {
				break
			}
		}
	}
	fmt.Println("ready")
	seen := 0
	for {
		select {
		case ev := <-w.Events:
			if wanted[ev.Name] {
				seen++
			}
		case err := <-w.Errors:
			return err
		}
	}
}
