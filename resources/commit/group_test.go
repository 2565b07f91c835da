package commit_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/reactive-ccm/ccm/resources/commit"
)

// disk records what the files of a test asked of their filesystem, in
// order: "start NAME" for a write-back started, "sync NAME" for an fsync.
type disk struct {
	mu         sync.Mutex
	log        []string
	syncErr    map[string]error
	groupSyncs []int
}

func newDisk() *disk {
	return &disk{syncErr: map[string]error{}}
}

// onSync is the group's hook: it records how many files each round made
// durable together.
func (d *disk) onSync(files int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.groupSyncs = append(d.groupSyncs, files)
}

// did returns the names the log shows step (start or sync) for, in order.
func (d *disk) did(step string) []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	var names []string
	for _, l := range d.log {
		if name, ok := strings.CutPrefix(l, step+" "); ok {
			names = append(names, name)
		}
	}
	return names
}

// file is a written file on the disk.
type file struct {
	d    *disk
	name string
}

var _ commit.Durable = file{}

func (f file) StartSync()  { _ = f.record("start") }
func (f file) Sync() error { return f.record("sync") }

func (f file) record(step string) error {
	f.d.mu.Lock()
	defer f.d.mu.Unlock()
	f.d.log = append(f.d.log, step+" "+f.name)
	return f.d.syncErr[f.name]
}

// syncAll runs a member of g per file, each syncing its file then
// leaving, and returns their errors by name once all are done.
func syncAll(ctx context.Context, g *commit.Group, files ...file) map[string]error {
	var mu sync.Mutex
	errs := map[string]error{}
	var wg sync.WaitGroup
	for _, f := range files {
		wg.Go(func() {
			err := commit.Sync(commit.WithGroup(ctx, g), f)
			g.Leave()
			mu.Lock()
			errs[f.name] = err
			mu.Unlock()
		})
	}
	wg.Wait()
	return errs
}

func noErrors(t *testing.T, errs map[string]error) {
	t.Helper()
	for name, err := range errs {
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func sorted(names []string) []string {
	slices.Sort(names)
	return names
}

func TestGroupStartsEveryWriteBackBeforeAnySync(t *testing.T) {
	d := newDisk()
	names := []string{"a", "b", "c", "d", "e", "f", "g"}
	var files []file
	for _, n := range names {
		files = append(files, file{d, n})
	}
	g := commit.NewGroup(len(files), d.onSync)
	noErrors(t, syncAll(t.Context(), g, files...))
	if !slices.Equal(d.groupSyncs, []int{7}) {
		t.Fatalf("the group's rounds covered %v files, want one of 7", d.groupSyncs)
	}
	if !slices.Equal(sorted(d.did("start")), names) || !slices.Equal(sorted(d.did("sync")), names) {
		t.Fatalf("log %v: every file's write-back started and synced once", d.log)
	}
	// The device gets every write of the round before anyone waits on
	// one: the syncs all come after the last start.
	if i := slices.IndexFunc(d.log, func(l string) bool { return strings.HasPrefix(l, "sync ") }); i < len(names) {
		t.Fatalf("log %v: a file was synced before every write-back started", d.log)
	}
}

func TestGroupWaitsOnlyForMembersStillRunning(t *testing.T) {
	d := newDisk()
	// The third member ends without writing anything: the two others
	// share a round once it has left, whenever that is.
	g := commit.NewGroup(3, d.onSync)
	done := make(chan map[string]error)
	go func() { done <- syncAll(t.Context(), g, file{d, "a"}, file{d, "b"}) }()
	g.Leave()
	noErrors(t, <-done)
	if !slices.Equal(d.groupSyncs, []int{2}) || !slices.Equal(sorted(d.did("sync")), []string{"a", "b"}) {
		t.Fatalf("rounds %v, log %v: the two writers should have shared one round", d.groupSyncs, d.log)
	}
}

func TestGroupFailureStaysWithItsFile(t *testing.T) {
	bad := errors.New("input/output error")
	d := newDisk()
	d.syncErr["b"] = bad
	errs := syncAll(t.Context(), commit.NewGroup(3, d.onSync), file{d, "a"}, file{d, "b"}, file{d, "c"})
	if !errors.Is(errs["b"], bad) || errs["a"] != nil || errs["c"] != nil {
		t.Fatalf("errors %v: only b failed", errs)
	}
	if !slices.Equal(sorted(d.did("sync")), []string{"a", "b", "c"}) {
		t.Fatalf("synced: %v, want every file", d.did("sync"))
	}
}

func TestFileAloneIsSyncedAlone(t *testing.T) {
	d := newDisk()
	if err := commit.Sync(t.Context(), file{d, "outside"}); err != nil {
		t.Fatal(err)
	}
	noErrors(t, syncAll(t.Context(), commit.NewGroup(1, d.onSync), file{d, "alone"}))
	if !slices.Equal(d.did("sync"), []string{"outside", "alone"}) || len(d.groupSyncs) != 0 {
		t.Fatalf("log %v, rounds %v: a file without company is synced alone", d.log, d.groupSyncs)
	}
}

func TestMemberGivingUpHoldsNoOneBack(t *testing.T) {
	d := newDisk()
	g := commit.NewGroup(2, d.onSync)
	ctx, cancel := context.WithCancel(commit.WithGroup(t.Context(), g))
	cancel()
	// Its context ended while it waited for the other member: it leaves
	// the round, unsynced, and the other is then alone.
	if err := commit.Sync(ctx, file{d, "a"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want the context's", err)
	}
	g.Leave()
	if err := commit.Sync(commit.WithGroup(t.Context(), g), file{d, "b"}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d.did("sync"), []string{"b"}) || len(d.groupSyncs) != 0 {
		t.Fatalf("log %v, rounds %v: only b should be synced, alone", d.log, d.groupSyncs)
	}
}
