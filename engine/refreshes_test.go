package engine_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/state"
)

const refreshChain = `
- fake:
    - conf: {value: "1"}
    - svc: {value: "x", subscribe: [fake#conf]}
`

// pendingOnDisk reads the pending refreshes the state directory holds for
// the only graph in it.
func pendingOnDisk(t *testing.T, dir *state.Dir) []string {
	t.Helper()
	sub, err := dir.Sub("refreshes")
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	names, err := sub.Names()
	if err != nil || len(names) > 1 {
		t.Fatalf("refresh files %v, %v; want at most one", names, err)
	}
	if len(names) == 0 {
		return nil
	}
	var f struct{ Pending []string }
	if _, err := sub.ReadJSON(names[0], &f); err != nil {
		t.Fatal(err)
	}
	return f.Pending
}

func openState(t *testing.T) *state.Dir {
	t.Helper()
	d, err := state.Open(filepath.Join(t.TempDir(), "state"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// refreshOwed runs refreshChain once with svc failing, so svc is owed a
// refresh; it returns the world, the state directory and the manifest's
// directory.
func refreshOwed(t *testing.T) (*world, *state.Dir, string) {
	t.Helper()
	w := newWorld(t)
	w.set("svc", "x")
	w.failing["svc"] = true
	dir := openState(t)
	mdir := t.TempDir()
	sum, _ := runOnce(t, loadIn(t, mdir, refreshChain), engine.Options{State: dir})
	if sum.Failed != 1 || w.refreshes["svc"] != 0 {
		t.Fatalf("first run: %+v, refreshes %v", sum, w.refreshes)
	}
	return w, dir, mdir
}

func TestPendingRefreshIsSavedBeforeTheChangeIsReported(t *testing.T) {
	w := newWorld(t)
	w.set("svc", "x")
	w.failing["svc"] = true
	dir := openState(t)
	var atReport []string
	opts := engine.Options{State: dir, Events: func(ev *engine.Event) {
		if ev.ID() == "fake#conf" && ev.Changed {
			atReport = pendingOnDisk(t, dir)
		}
	}}
	g := load(t, refreshChain)
	if _, err := engine.New(g, opts).Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(atReport, []string{"fake#svc"}) {
		t.Fatalf("pending refreshes on disk when the change was reported: %v, want [fake#svc]", atReport)
	}
	if got := pendingOnDisk(t, dir); !slices.Equal(got, []string{"fake#svc"}) {
		t.Fatalf("after the subscriber failed the file holds %v, want [fake#svc]", got)
	}
}

func TestPendingRefreshIsReplayedAfterARestartAndRemovedWhenConsumed(t *testing.T) {
	w, dir, mdir := refreshOwed(t)

	// ccm starts again: conf is already right, so only the saved refresh
	// can make svc run.
	delete(w.failing, "svc")
	sum, rec := runOnce(t, loadIn(t, mdir, refreshChain), engine.Options{State: dir})
	if ev := rec.byID()["fake#svc"]; ev == nil || !ev.Refreshed || ev.Trigger != engine.TriggerStartup {
		t.Fatalf("svc after the restart: %+v, want a refresh", ev)
	}
	if w.refreshes["svc"] != 1 || !sum.OK() {
		t.Fatalf("refreshes %v, summary %+v", w.refreshes, sum)
	}
	if got := pendingOnDisk(t, dir); got != nil {
		t.Fatalf("a consumed refresh is still on disk: %v", got)
	}
	runOnce(t, loadIn(t, mdir, refreshChain), engine.Options{State: dir})
	if w.refreshes["svc"] != 1 {
		t.Fatalf("a consumed refresh ran again: %v", w.refreshes)
	}
}

func TestNoopReplaysPendingRefreshesWithoutConsumingThem(t *testing.T) {
	w, dir, mdir := refreshOwed(t)
	delete(w.failing, "svc")

	_, rec := runOnce(t, loadIn(t, mdir, refreshChain), engine.Options{State: dir, Noop: true})
	if ev := rec.byID()["fake#svc"]; !ev.Refreshed || !ev.Noop {
		t.Fatalf("noop svc event %+v, want a would-refresh", ev)
	}
	if got := pendingOnDisk(t, dir); !slices.Equal(got, []string{"fake#svc"}) {
		t.Fatalf("noop consumed the pending refresh: %v", got)
	}
}

func TestPendingRefreshOfARemovedResourceIsDropped(t *testing.T) {
	_, dir, mdir := refreshOwed(t)
	runOnce(t, loadIn(t, mdir, "- fake:\n    - conf: {value: \"1\"}\n"), engine.Options{State: dir})
	if got := pendingOnDisk(t, dir); got != nil {
		t.Fatalf("the refresh of a resource no longer managed is kept: %v", got)
	}
}

// TestTheStateDirectoryIsMadeByTheFirstRecord: a run that records nothing
// leaves no state directory, as upstream leaves none, nor does one whose
// refreshes were owed and done (the record kept while they ran goes with
// what it made); a refresh still owed or a rollback record makes it, and
// only its own subdirectory, 0700.
func TestTheStateDirectoryIsMadeByTheFirstRecord(t *testing.T) {
	for _, c := range []struct {
		name string
		// run runs the engine once with the state directory.
		run  func(t *testing.T, st *state.Dir)
		want []string
	}{
		{"nothing recorded", func(t *testing.T, st *state.Dir) {
			newWorld(t)
			runOnce(t, load(t, "- fake:\n    - conf: {value: \"1\"}\n"), engine.Options{State: st, Rollback: true})
		}, nil},
		{"a refresh owed and done", func(t *testing.T, st *state.Dir) {
			w := newWorld(t)
			w.set("svc", "x")
			runOnce(t, load(t, refreshChain), engine.Options{State: st})
		}, nil},
		{"a refresh owed", func(t *testing.T, st *state.Dir) {
			w := newWorld(t)
			w.set("svc", "x")
			w.failing["svc"] = true
			runOnce(t, load(t, refreshChain), engine.Options{State: st})
		}, []string{"refreshes"}},
		{"a change rolled back", func(t *testing.T, st *state.Dir) {
			c := newRollbackCase(t, "good")
			runOnce(t, load(t, c.manifest("bad", "")), engine.Options{State: st, Rollback: true})
		}, []string{"rollback"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := openState(t)
			c.run(t, st)
			entries, err := os.ReadDir(st.Path())
			if c.want == nil {
				if !errors.Is(err, fs.ErrNotExist) {
					t.Fatalf("state directory: %v, %v; want none", entries, err)
				}
				return
			}
			var got []string
			for _, e := range entries {
				got = append(got, e.Name())
			}
			if !slices.Equal(got, c.want) {
				t.Fatalf("state directory holds %v, %v; want %v", got, err, c.want)
			}
			for _, p := range append([]string{"."}, c.want...) {
				p = filepath.Join(st.Path(), p)
				if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o700 {
					t.Errorf("%s: %v, %v; want mode 0700", p, fi, err)
				}
			}
		})
	}
}
