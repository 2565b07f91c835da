package enginetest_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/enginetest"
	"github.com/reactive-ccm/ccm/resources"
	_ "github.com/reactive-ccm/ccm/resources/file"
)

// startMotd runs a file resource holding "hello\n" in a temporary
// directory.
func startMotd(t *testing.T) (w *enginetest.Run, path, id string) {
	path = filepath.Join(t.TempDir(), "motd")
	w = enginetest.Start(t, fmt.Sprintf(`
- file:
    - %s:
        ensure: present
        content: "hello\n"
        owner: "%d"
        group: "%d"
        mode: "0644"
`, path, os.Getuid(), os.Getgid()), enginetest.Options{})
	return w, path, "file#" + path
}

func TestRunRepairsFileDrift(t *testing.T) {
	w, path, id := startMotd(t)
	if ev := w.Changed(t, id); ev.Trigger != engine.TriggerStartup {
		t.Fatalf("first convergence = %+v, want a startup change", ev)
	}
	w.Settle(t)
	if err := os.WriteFile(path, []byte("drift\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if ev := w.Changed(t, id); ev.Trigger != engine.TriggerDrift {
		t.Fatalf("repair = %+v, want a drift change", ev)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "hello\n" {
		t.Fatalf("after the repair the file holds %q, %v", b, err)
	}
	if st := w.Engine().State(); st.Resources != 1 {
		t.Fatalf("engine state %+v, want one resource", st)
	}
}

func TestRepairsEachWaitsForEachRepair(t *testing.T) {
	w, path, id := startMotd(t)
	w.Changed(t, id)
	w.Settle(t)
	write := func(t *testing.T) {
		if err := os.WriteFile(path, []byte("drift\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	remove := func(t *testing.T) {
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
	}
	var checked []string
	w.RepairsEach(t, id, []enginetest.Drift{
		{Name: "content changed", Make: write, Want: "hello\n"},
		{Name: "file removed", Make: remove, ID: id, Want: "hello\n"},
	}, func(t *testing.T, d enginetest.Drift) {
		checked = append(checked, d.Name)
		if b, err := os.ReadFile(path); err != nil || string(b) != d.Want {
			t.Errorf("after the repair the file holds %q, %v", b, err)
		}
	})
	if len(checked) != 2 {
		t.Fatalf("checked %q, want both drifts", checked)
	}
}

// units is a hand-driven unit source standing in for the systemd hub.
type units struct {
	mu      sync.Mutex
	subs    map[string]func()
	readied bool
}

func (u *units) watch(unit string, notify func()) func() {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.subs[unit] = notify
	return func() {}
}

func (u *units) ready(context.Context) error {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.readied = true
	return nil
}

func (u *units) fire(t *testing.T, unit string) {
	u.mu.Lock()
	notify, ok := u.subs[unit]
	u.mu.Unlock()
	if !ok {
		t.Fatalf("%s is not watched through the caller's unit source", unit)
	}
	notify()
}

// unitWatcher is a resource watching one unit, always in its desired
// state.
type unitWatcher struct{ unit string }

func (u unitWatcher) Watch() resources.WatchSpec { return resources.WatchSpec{Units: []string{u.unit}} }
func (unitWatcher) Check(context.Context) (resources.Status, error) {
	return resources.Status{Ensure: "present", Desired: true}, nil
}
func (unitWatcher) Apply(context.Context, resources.Request) (resources.Change, error) {
	return resources.Change{}, nil
}

// flaky fails its first check, then needs one apply.
type flaky struct {
	checks  atomic.Int32
	applied atomic.Bool
}

func (*flaky) Watch() resources.WatchSpec { return resources.WatchSpec{} }
func (f *flaky) Check(context.Context) (resources.Status, error) {
	if f.checks.Add(1) == 1 {
		return resources.Status{}, errors.New("transient failure")
	}
	return resources.Status{Ensure: "present", Desired: f.applied.Load()}, nil
}
func (f *flaky) Apply(context.Context, resources.Request) (resources.Change, error) {
	f.applied.Store(true)
	return resources.Change{Changed: true}, nil
}

func init() {
	resources.Register(resources.Type{Name: "enginetest_unit", New: func(spec *resources.Spec) (resources.Instance, error) {
		return resources.Instance{Resource: unitWatcher{unit: spec.Name}, Provider: "test", Ensure: "present"}, nil
	}})
	resources.Register(resources.Type{Name: "enginetest_flaky", New: func(*resources.Spec) (resources.Instance, error) {
		return resources.Instance{Resource: &flaky{}, Provider: "test", Ensure: "present"}, nil
	}})
}

func TestAllowFailuresWaitsPastARetriedFailure(t *testing.T) {
	w := enginetest.Start(t, "- enginetest_flaky:\n    - x: {}\n", enginetest.Options{
		Engine:        engine.Options{Retry: engine.RetryPolicy{Base: time.Millisecond, Max: 10 * time.Millisecond}},
		AllowFailures: true,
	})
	if ev := w.Changed(t, "enginetest_flaky#x"); ev.Trigger != engine.TriggerRetry {
		t.Fatalf("change = %+v, want the retry after the failure", ev)
	}
}

func TestCallersUnitSourceAndReadyAreUsed(t *testing.T) {
	src := &units{subs: map[string]func(){}}
	w := enginetest.Start(t, "- enginetest_unit:\n    - app.service: {}\n", enginetest.Options{
		Engine: engine.Options{Watchers: engine.Watchers{Units: src.watch, Ready: src.ready}},
	})
	id := "enginetest_unit#app.service"
	w.Next(t, "the first check", func(ev *engine.Event) bool { return ev.ID() == id })
	w.Settle(t)
	src.mu.Lock()
	readied := src.readied
	src.mu.Unlock()
	if !readied {
		t.Error("the caller's Ready was not waited for")
	}
	src.fire(t, "app.service")
	w.Next(t, "a check after the unit changed", func(ev *engine.Event) bool {
		return ev.ID() == id && ev.Trigger == engine.TriggerDrift
	})
}
