package reload_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/reload"
	"github.com/reactive-ccm/ccm/graph"
	_ "github.com/reactive-ccm/ccm/resources/all"
	"github.com/reactive-ccm/ccm/watchers/clock"
)

// watcher is a hand-driven Watcher: the test says when a watched path
// changed.
type watcher struct {
	mu sync.Mutex
	// files holds each path's watches, as the hubs do: one dropped leaves
	// the others.
	files map[string]map[*func()]bool
}

func (w *watcher) WatchFile(path string, notify func()) func() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.files == nil {
		w.files = map[string]map[*func()]bool{}
	}
	if w.files[path] == nil {
		w.files[path] = map[*func()]bool{}
	}
	id := &notify
	w.files[path][id] = true
	return func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		delete(w.files[path], id)
	}
}

func (w *watcher) WatchTree(root string, notify func()) func() { return w.WatchFile(root, notify) }

// fire calls the watch of path, failing the test when path is not
// watched.
func (w *watcher) fire(t *testing.T, path string) {
	t.Helper()
	w.mu.Lock()
	var notify []func()
	for n := range w.files[path] {
		notify = append(notify, *n)
	}
	w.mu.Unlock()
	if len(notify) == 0 {
		t.Fatalf("%s is not watched", path)
	}
	for _, n := range notify {
		n()
	}
}

// daemon is a watching engine on a manifest in a temporary directory,
// with its reload loop on a fake clock.
type daemon struct {
	t        *testing.T
	dir      string
	manifest string
	w        *watcher
	clock    *clock.Fake
	r        *reload.Reloader
	e        *engine.Engine
	// outcomes receives every reload's outcome.
	outcomes chan error
	loads    atomic.Int32
	// loadedAt is when the last load began, on the fake clock.
	loadedAt time.Time
}

const quiet, maxWait = 100 * time.Millisecond, 2 * time.Second

// file is a manifest entry for a file under the daemon's directory.
func (d *daemon) file(name, content string) string {
	return fmt.Sprintf("    - %s: {ensure: present, owner: root, group: root, mode: \"0644\", content: %q}\n", filepath.Join(d.dir, name), content)
}

func (d *daemon) write(entries ...string) {
	d.t.Helper()
	src := "- file:\n"
	for _, e := range entries {
		src += e
	}
	d.put(src)
}

// put replaces the manifest with src, atomically: the loop may read it
// at any time.
func (d *daemon) put(src string) {
	d.t.Helper()
	tmp := d.manifest + ".new"
	if err := os.WriteFile(tmp, []byte(src), 0o644); err != nil {
		d.t.Fatal(err)
	}
	if err := os.Rename(tmp, d.manifest); err != nil {
		d.t.Fatal(err)
	}
}

func (d *daemon) load(context.Context) (*graph.Graph, reload.Inputs, error) {
	d.loads.Add(1)
	d.loadedAt = d.clock.Now()
	g, err := graph.Load([]string{d.manifest}, graph.Options{})
	return g, reload.Inputs{Files: []string{d.manifest}}, err
}

// start converges a manifest of one file, a, holding "one", and runs the
// reload loop, with the options custom returns (nil for none) under the
// daemon's own.
func start(t *testing.T, custom func(d *daemon) reload.Options) *daemon {
	dir := t.TempDir()
	d := &daemon{t: t, dir: dir, manifest: filepath.Join(dir, "manifest.yaml"), w: &watcher{}, outcomes: make(chan error, 10),
		clock: clock.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))}
	d.write(d.file("a", "one\n"))
	var opts reload.Options
	if custom != nil {
		opts = custom(d)
	}
	if opts.Load == nil {
		opts.Load = d.load
	}
	g, in, err := opts.Load(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	d.loads.Store(0)
	settled := make(chan struct{}, 1)
	d.e = engine.New(g, engine.Options{Watch: true, Recheck: -1, Logger: slog.New(slog.DiscardHandler),
		OnSettled: func(engine.State) {
			select {
			case settled <- struct{}{}:
			default:
			}
		}})
	opts.Swap, opts.Watcher, opts.Clock = d.e.Swap, d.w, d.clock
	opts.Quiet, opts.MaxWait = quiet, maxWait
	opts.Logger = slog.New(slog.DiscardHandler)
	opts.Reported = func(err error) { d.outcomes <- err }
	d.r = reload.New(in, opts)
	ctx, cancel := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	wg.Go(func() { _, _ = d.e.Run(ctx) })
	wg.Go(func() { d.r.Run(ctx) })
	t.Cleanup(func() { cancel(); wg.Wait() })
	select {
	case <-settled:
	case <-time.After(time.Minute):
		t.Fatal("the engine did not converge at start")
	}
	return d
}

// armed waits until the loop's timer runs until at: the loop has taken
// the last request.
func (d *daemon) armed(at time.Time) {
	d.t.Helper()
	ctx, cancel := context.WithTimeout(d.t.Context(), time.Minute)
	defer cancel()
	if err := d.clock.WaitNext(ctx, func(next time.Time) bool { return next.Equal(at) }); err != nil {
		next, _ := d.clock.Next()
		d.t.Fatalf("the loop's timer runs until %v, want %v", next, at)
	}
}

// edited tells the loop the manifest changed, lets the inputs be still
// for the quiet time and returns the reload's outcome.
func (d *daemon) edited() error {
	d.t.Helper()
	d.w.fire(d.t, d.manifest)
	d.still()
	d.clock.Advance(quiet)
	return d.outcome()
}

// still waits until the loop waits for the inputs to be still from now.
func (d *daemon) still() { d.armed(d.clock.Now().Add(quiet)) }

// outcome waits for the next reload's outcome.
func (d *daemon) outcome() error {
	d.t.Helper()
	select {
	case err := <-d.outcomes:
		return err
	case <-time.After(time.Minute):
		d.t.Fatal("no reload")
		return nil
	}
}

// converged waits until the engine is idle and reports whether the file
// name under the daemon's directory holds content.
func (d *daemon) holds(name, content string) bool {
	d.t.Helper()
	if err := d.e.WaitIdle(d.t.Context()); err != nil {
		d.t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(d.dir, name))
	return err == nil && string(b) == content
}

func TestAnEditReloadsOnceTheInputsAreStill(t *testing.T) {
	d := start(t, nil)
	if !d.holds("a", "one\n") {
		t.Fatal("not converged at start")
	}
	d.write(d.file("a", "one\n"), d.file("b", "two\n"))
	if err := d.edited(); err != nil {
		t.Fatal(err)
	}
	if !d.holds("b", "two\n") {
		t.Fatal("the resource the edit added was not converged")
	}
	if st := d.r.Stats(); st.Reloads != 1 || st.Failures != 0 {
		t.Fatalf("stats %+v", st)
	}
}

// TestABurstReloadsAtTheMaximumWait: a manifest rewritten every 50ms
// never stays still for the quiet time; it is reloaded MaxWait after the
// first write all the same.
func TestABurstReloadsAtTheMaximumWait(t *testing.T) {
	d := start(t, nil)
	step, t0 := 50*time.Millisecond, d.clock.Now()
	for i := 0; time.Duration(i)*step < maxWait; i++ {
		if i > 0 {
			d.clock.Advance(step)
		}
		d.write(d.file("a", fmt.Sprintf("v%d\n", i)))
		d.w.fire(t, d.manifest)
		// Each rewrite restarts the quiet time, up to the maximum wait.
		due := d.clock.Now().Add(quiet)
		if due.After(t0.Add(maxWait)) {
			due = t0.Add(maxWait)
		}
		d.armed(due)
		if d.loads.Load() != 0 {
			t.Fatalf("reloaded %v after the first write, before the inputs were still or the maximum wait", time.Duration(i)*step)
		}
	}
	d.clock.Advance(step)
	if err := d.outcome(); err != nil {
		t.Fatal(err)
	}
	if d.loads.Load() != 1 || d.loadedAt.Sub(t0) != maxWait {
		t.Fatalf("%d loads, at %v after the first write; want one at the maximum wait, %v", d.loads.Load(), d.loadedAt.Sub(t0), maxWait)
	}
}

// TestOnlyAChangeOfContentReloads: an event that changes nothing causes
// no reload; SIGHUP's Force does.
func TestOnlyAChangeOfContentReloads(t *testing.T) {
	d := start(t, nil)
	d.w.fire(t, d.manifest)
	d.still()
	d.clock.Advance(quiet)
	d.r.Force()
	d.still()
	d.clock.Advance(quiet)
	if err := d.outcome(); err != nil {
		t.Fatal(err)
	}
	if st := d.r.Stats(); st.Reloads != 1 || d.loads.Load() != 1 {
		t.Fatalf("%d reloads, %d loads: want only the forced one", st.Reloads, d.loads.Load())
	}
}

// TestForceNowReloadsUnchangedInputsAtOnce: what a template read while
// loading changed reloads at once, though no input did.
func TestForceNowReloadsUnchangedInputsAtOnce(t *testing.T) {
	d := start(t, nil)
	d.r.ForceNow()
	if err := d.outcome(); err != nil {
		t.Fatal(err)
	}
	if d.loads.Load() != 1 || d.loadedAt != d.clock.Now() {
		t.Fatalf("%d loads at %v: want one at once", d.loads.Load(), d.loadedAt)
	}
}

// TestABrokenManifestKeepsTheRunningGraph: a manifest that does not
// compile leaves the running graph in force and is tried again only once
// it changes.
func TestABrokenManifestKeepsTheRunningGraph(t *testing.T) {
	d := start(t, nil)
	d.put("- file:\n    - relative: {ensure: nonsense}\n")
	if err := d.edited(); err == nil {
		t.Fatal("a broken manifest reloaded")
	}
	if err := os.Remove(filepath.Join(d.dir, "a")); err != nil {
		t.Fatal(err)
	}
	d.e.Recheck()
	if !d.holds("a", "one\n") {
		t.Fatal("the running graph was dropped with the broken manifest")
	}
	// The same broken content again: no second try.
	d.w.fire(t, d.manifest)
	d.still()
	d.clock.Advance(quiet)
	d.write(d.file("a", "fixed\n"))
	if err := d.edited(); err != nil {
		t.Fatal(err)
	}
	if st := d.r.Stats(); st.Reloads != 2 || st.Failures != 1 || d.loads.Load() != 2 || !d.holds("a", "fixed\n") {
		t.Fatalf("stats %+v, %d loads", st, d.loads.Load())
	}
}

// TestARemoteRevisionReloadsAtOnce: a new remote revision reloads
// without waiting for a quiet time, and one that arrives while a load
// runs is loaded again.
func TestARemoteRevisionReloadsAtOnce(t *testing.T) {
	var revision atomic.Int32
	var arrives atomic.Bool
	applied := make(chan struct{}, 4)
	d := start(t, func(d *daemon) reload.Options {
		return reload.Options{
			Begin: func() func() { return func() { applied <- struct{}{} } },
			Load: func(ctx context.Context) (*graph.Graph, reload.Inputs, error) {
				g, in, err := d.load(ctx)
				if arrives.CompareAndSwap(true, false) {
					revision.Add(1)
				}
				in.Remote = func() []byte { return []byte{byte(revision.Load())} }
				return g, in, err
			},
		}
	})
	revision.Add(1)
	arrives.Store(true)
	d.r.RequestNow()
	for range 2 {
		if err := d.outcome(); err != nil {
			t.Fatal(err)
		}
		<-applied
	}
	if d.loads.Load() != 2 || len(applied) != 0 {
		t.Fatalf("%d loads: the revision that came during the first load was not loaded, or loaded twice", d.loads.Load())
	}
}

// startEditing starts a daemon whose next load once edit is set rewrites
// the manifest after reading it, to a holding content.
func startEditing(t *testing.T, content string) (*daemon, *atomic.Bool) {
	edit := new(atomic.Bool)
	d := start(t, func(d *daemon) reload.Options {
		return reload.Options{Load: func(ctx context.Context) (*graph.Graph, reload.Inputs, error) {
			g, in, err := d.load(ctx)
			if edit.Swap(false) {
				d.write(d.file("a", content))
			}
			return g, in, err
		}}
	})
	return d, edit
}

// TestAnEditRightAfterTheLoadReloads: an edit between the load's read of
// the manifest and the watch on what it loaded is not taken for loaded.
func TestAnEditRightAfterTheLoadReloads(t *testing.T) {
	d, edit := startEditing(t, "three\n")
	edit.Store(true)
	d.write(d.file("a", "two\n"))
	if err := d.edited(); err != nil {
		t.Fatal(err)
	}
	d.still()
	d.clock.Advance(quiet)
	if err := d.outcome(); err != nil {
		t.Fatal(err)
	}
	if !d.holds("a", "three\n") {
		t.Fatal("the edit made right after the load was never loaded")
	}
}

// TestAFixWrittenWhileABrokenManifestLoadsReloads: a fix written after
// the failing load read the manifest is not taken for what failed.
func TestAFixWrittenWhileABrokenManifestLoadsReloads(t *testing.T) {
	d, edit := startEditing(t, "fixed\n")
	edit.Store(true)
	d.put("- file:\n    - relative: {ensure: nonsense}\n")
	if err := d.edited(); err == nil {
		t.Fatal("a broken manifest reloaded")
	}
	// The fix's own event, as inotify delivers it.
	if err := d.edited(); err != nil {
		t.Fatal(err)
	}
	if !d.holds("a", "fixed\n") {
		t.Fatal("the fix written while the broken manifest loaded was not converged")
	}
}
