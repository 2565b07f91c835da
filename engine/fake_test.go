package engine_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/commit"
)

// world is the state the fake resources manage: a value per name.
type world struct {
	mu      sync.Mutex
	values  map[string]string
	applies []string
	// groups lists the members of each ApplyGroup call, by name.
	groups    [][]string
	refreshes map[string]int
	// saves counts the Saves of each fake.
	saves  map[string]int
	checks map[string]int
	// failing makes a resource's Check fail until cleared.
	failing map[string]bool
	// undo sets a resource's value back right after each apply, before
	// its re-check: another writer faster than ccm.
	undo map[string]string
	// applied, when set, is called after each apply, outside the lock:
	// the echo a watch sees of ccm's own write.
	applied func(name string)
	// checking, when set, is called at the start of each check, outside
	// the lock: something that happens while a check runs.
	checking func(name string)
	// syncfs counts the syncs a commit group made of the fakes' writes
	// together, settled the writes they covered, fsync those synced
	// alone.
	syncfs, settled, fsync atomic.Int32
	running                atomic.Int32
	peak                   atomic.Int32
	// refreshSignals receives the name of each fake refreshed, when it has
	// room.
	refreshSignals chan string
}

var (
	worldMu sync.Mutex
	current *world
)

func newWorld(t *testing.T) *world {
	w := &world{values: map[string]string{}, refreshes: map[string]int{}, saves: map[string]int{}, checks: map[string]int{}, failing: map[string]bool{}, undo: map[string]string{}, refreshSignals: make(chan string, 100)}
	worldMu.Lock()
	current = w
	worldMu.Unlock()
	t.Cleanup(func() {
		worldMu.Lock()
		current = nil
		worldMu.Unlock()
	})
	return w
}

func (w *world) get(k string) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.values[k]
}

func (w *world) set(k, v string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.values[k] = v
}

// awaitRefresh waits until name is refreshed.
func (w *world) awaitRefresh(t *testing.T, name string) {
	t.Helper()
	timeout := time.After(time.Minute)
	for {
		select {
		case got := <-w.refreshSignals:
			if got == name {
				return
			}
		case <-timeout:
			t.Fatalf("%s was not refreshed", name)
		}
	}
}

// echo calls the applied hook, if any.
func (w *world) echo(name string) {
	w.mu.Lock()
	fn := w.applied
	w.mu.Unlock()
	if fn != nil {
		fn(name)
	}
}

// checked returns how many times name was checked.
func (w *world) checked(name string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.checks[name]
}

func (w *world) order() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.applies...)
}

// bracketed fails t unless "first" applied before, and "last" after, what
// ran between them: between waited for first, and last for all of between.
func (w *world) bracketed(t *testing.T, between string) {
	t.Helper()
	if order := w.order(); order[0] != "first" || order[len(order)-1] != "last" {
		t.Fatalf("order = %v: %s must wait for first, and last for all of it", order, between)
	}
}

// fakeProps are the properties of the "fake" test type.
type fakeProps struct {
	Value string `yaml:"value"`
	// Fail makes Check fail.
	Fail bool `yaml:"fail"`
	// Stuck makes Apply succeed without changing anything.
	Stuck bool `yaml:"stuck"`
	// Sleep slows Apply down, to observe parallelism.
	Sleep string `yaml:"sleep"`
	// Watch registers the fake with the drift notifier of the test.
	Watch bool `yaml:"watch"`
	// Mount registers the fake with the mount source of the test, for
	// the mount point /fake/mount/NAME.
	Mount bool `yaml:"mount"`
	// Input is a path the fake's desired state is read from, watched as
	// an input (/fake/input/NAME): the world's value "input/NAME", when
	// set, is the desired value instead of Value.
	Input bool `yaml:"input"`
	// Poll re-checks the fake at this interval (the poll "poll:INTERVAL"
	// of the test).
	Poll string `yaml:"poll"`
	// Hang makes Check wait until its context ends, like a hung command.
	Hang bool `yaml:"hang"`
	// Mirror is a file that holds the fake's value once applied or
	// restored, for health check plugins to read.
	Mirror string `yaml:"mirror"`
	// Independent lets consecutive independent fakes run at once.
	Independent bool `yaml:"independent"`
	// Commit makes the fake join commit groups: its Apply makes a write
	// durable through commit.Sync.
	Commit bool `yaml:"commit"`
}

type fake struct {
	name  string
	p     fakeProps
	sleep time.Duration
	poll  time.Duration
	w     *world
}

func init() {
	resources.Register(resources.Type{Name: "fake", Subscribes: true, Undoable: true, New: func(spec *resources.Spec) (resources.Instance, error) {
		var p fakeProps
		if err := spec.Decode(&p); err != nil {
			return resources.Instance{}, err
		}
		d, err := time.ParseDuration(orZero(p.Sleep))
		if err != nil {
			return resources.Instance{}, resources.Errorf(spec.KeyPos("sleep"), "sleep: %v", err)
		}
		poll, err := time.ParseDuration(orZero(p.Poll))
		if err != nil {
			return resources.Instance{}, resources.Errorf(spec.KeyPos("poll"), "poll: %v", err)
		}
		worldMu.Lock()
		w := current
		worldMu.Unlock()
		return resources.Instance{Resource: &fake{name: spec.Name, p: p, sleep: d, poll: poll, w: w}, Provider: "memory", Ensure: p.Value, Independent: p.Independent}, nil
	}})
}

func orZero(s string) string {
	if s == "" {
		return "0s"
	}
	return s
}

func (f *fake) Watch() resources.WatchSpec {
	spec := resources.WatchSpec{Poll: f.poll}
	if f.p.Watch {
		spec.Paths = []string{"/fake/" + f.name}
	}
	if f.p.Input {
		spec.Inputs = []string{"/fake/input/" + f.name}
	}
	if f.p.Mount {
		spec.Mounts = []string{"/fake/mount/" + f.name}
	}
	return spec
}

func (f *fake) Check(ctx context.Context) (resources.Status, error) {
	f.w.mu.Lock()
	f.w.checks[f.name]++
	hook := f.w.checking
	f.w.mu.Unlock()
	if hook != nil {
		hook(f.name)
	}
	if f.p.Hang {
		<-ctx.Done()
		return resources.Status{}, ctx.Err()
	}
	f.w.mu.Lock()
	failing := f.p.Fail || f.w.failing[f.name]
	got, want := f.w.values[f.name], f.want()
	f.w.mu.Unlock()
	if failing {
		return resources.Status{}, errors.New("check failed on purpose")
	}
	return resources.Status{Ensure: got, Desired: got == want, Differences: []resources.Difference{resources.Differs("value", got, want)}}, nil
}

func (f *fake) Apply(ctx context.Context, req resources.Request) (resources.Change, error) {
	if f.p.Commit && !req.Noop {
		if err := commit.Sync(ctx, fakeWrite{f.w}); err != nil {
			return resources.Change{}, err
		}
	}
	n := f.w.running.Add(1)
	defer f.w.running.Add(-1)
	for p := f.w.peak.Load(); n > p && !f.w.peak.CompareAndSwap(p, n); p = f.w.peak.Load() {
	}
	time.Sleep(f.sleep)
	defer f.w.echo(f.name)
	f.w.mu.Lock()
	defer f.w.mu.Unlock()
	if req.Refresh {
		f.w.refreshes[f.name]++
		select {
		case f.w.refreshSignals <- f.name:
		default:
		}
	}
	if req.Noop {
		return resources.Change{Changed: true, NoopMessage: "Would have set " + f.want(), Refreshed: req.Refresh}, nil
	}
	f.w.applies = append(f.w.applies, f.name)
	if !f.p.Stuck {
		f.mirror(f.want())
		f.w.values[f.name] = f.want()
	}
	if v, ok := f.w.undo[f.name]; ok {
		f.w.values[f.name] = v
	}
	return resources.Change{Changed: !req.Status.Desired || req.Refresh, Refreshed: req.Refresh}, nil
}

// want is the fake's desired value: its input's, if it has one and the
// world sets it, else Value. Callers hold f.w.mu.
func (f *fake) want() string {
	if v, ok := f.w.values["input/"+f.name]; ok && f.p.Input {
		return v
	}
	return f.p.Value
}

// GroupCommit says whether the fake joins commit groups.
func (f *fake) GroupCommit() bool { return f.p.Commit }

// fakeWrite is a fake's write, made durable by counting.
type fakeWrite struct{ w *world }

func (f fakeWrite) Sync() error    { f.w.fsync.Add(1); return nil }
func (fakeWrite) Device() uint64   { return 1 }
func (f fakeWrite) SyncFS() error  { f.w.syncfs.Add(1); return nil }
func (f fakeWrite) Settled() error { f.w.settled.Add(1); return nil }

// Size is more than the machine's dirty page cache can hold: a group of
// fakes finds it holds nothing else, and syncs their filesystem.
func (fakeWrite) Size() int64 { return 1 << 40 }

// load writes manifest to a temporary file and compiles it.
func load(t *testing.T, manifest string) *graph.Graph {
	t.Helper()
	return loadIn(t, t.TempDir(), manifest)
}

// loadIn is load with the manifest in dir, so reloads see the same file.
func loadIn(t *testing.T, dir, manifest string) *graph.Graph {
	t.Helper()
	file := filepath.Join(dir, "manifest.yaml")
	if err := os.WriteFile(file, []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := graph.Load([]string{file}, graph.Options{})
	if err != nil {
		t.Fatalf("loading manifest: %v", err)
	}
	return g
}

// recorder collects events.
type recorder struct {
	mu     sync.Mutex
	events []*engine.Event
}

func (r *recorder) add(ev *engine.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, ev)
}

func (r *recorder) byID() map[string]*engine.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string]*engine.Event{}
	for _, ev := range r.events {
		out[ev.ID()] = ev
	}
	return out
}

func runOnce(t *testing.T, g *graph.Graph, opts engine.Options) (engine.Summary, *recorder) {
	t.Helper()
	rec := &recorder{}
	opts.Events = rec.add
	sum, err := engine.New(g, opts).Run(t.Context())
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return sum, rec
}

// mirror writes v to the fake's mirror file, if any. Callers hold w.mu.
func (f *fake) mirror(v string) {
	if f.p.Mirror != "" {
		if err := os.WriteFile(f.p.Mirror, []byte(v), 0o644); err != nil {
			panic(err)
		}
	}
}

// Save keeps the fake's value.
func (f *fake) Save(context.Context) ([]byte, error) {
	f.w.mu.Lock()
	defer f.w.mu.Unlock()
	f.w.saves[f.name]++
	return []byte(f.w.values[f.name]), nil
}

// Restore puts a kept value back.
func (f *fake) Restore(_ context.Context, saved []byte) (bool, error) {
	f.w.mu.Lock()
	defer f.w.mu.Unlock()
	if f.w.values[f.name] == string(saved) {
		return false, nil
	}
	f.w.values[f.name] = string(saved)
	f.mirror(string(saved))
	return true, nil
}
