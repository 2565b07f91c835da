package commit_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/reactive-ccm/ccm/resources/commit"
)

// disk records what the files of a test asked of their filesystems.
type disk struct {
	mu sync.Mutex
	// syncfs counts the syncfs of each device; fsync and settled name the
	// files synced alone and those asked for their own errors.
	syncfs         map[uint64]int
	fsync, settled []string
	syncfsErr      map[uint64]error
	fsyncErr       map[string]error
	settledErr     map[string]error
	groupSyncs     []int
}

func newDisk() *disk {
	return &disk{syncfs: map[uint64]int{}, syncfsErr: map[uint64]error{}, fsyncErr: map[string]error{}, settledErr: map[string]error{}}
}

// onSync is the group's hook: it records how many files each sync made
// durable.
func (d *disk) onSync(files int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.groupSyncs = append(d.groupSyncs, files)
}

// file is a written file on a device of the disk.
type file struct {
	d    *disk
	name string
	dev  uint64
}

var _ commit.Durable = file{}

func (f file) Device() uint64 { return f.dev }

func (f file) SyncFS() error {
	f.d.mu.Lock()
	defer f.d.mu.Unlock()
	f.d.syncfs[f.dev]++
	return f.d.syncfsErr[f.dev]
}

func (f file) Settled() error {
	f.d.mu.Lock()
	defer f.d.mu.Unlock()
	f.d.settled = append(f.d.settled, f.name)
	return f.d.settledErr[f.name]
}

func (f file) Sync() error {
	f.d.mu.Lock()
	defer f.d.mu.Unlock()
	f.d.fsync = append(f.d.fsync, f.name)
	return f.d.fsyncErr[f.name]
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

func TestGroupSyncsEachFilesystemOnce(t *testing.T) {
	d := newDisk()
	var files []file
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		files = append(files, file{d, n, 1})
	}
	files = append(files, file{d, "x", 2}, file{d, "y", 2})
	g := commit.NewGroup(len(files), d.onSync)
	noErrors(t, syncAll(t.Context(), g, files...))
	if d.syncfs[1] != 1 || d.syncfs[2] != 1 {
		t.Fatalf("syncfs per device = %v, want one each", d.syncfs)
	}
	slices.Sort(d.groupSyncs)
	if !slices.Equal(d.groupSyncs, []int{2, 5}) {
		t.Fatalf("the group's syncs covered %v files, want 2 and 5", d.groupSyncs)
	}
	if len(d.fsync) != 0 || len(d.settled) != len(files) {
		t.Fatalf("fsync %v, settled %v: every file should be settled, none synced alone", d.fsync, d.settled)
	}
}

func TestGroupWaitsOnlyForMembersStillRunning(t *testing.T) {
	d := newDisk()
	// The third member ends without writing anything: the two others
	// share a sync once it has left, whenever that is.
	g := commit.NewGroup(3, d.onSync)
	done := make(chan map[string]error)
	go func() { done <- syncAll(t.Context(), g, file{d, "a", 1}, file{d, "b", 1}) }()
	g.Leave()
	noErrors(t, <-done)
	if d.syncfs[1] != 1 || len(d.fsync) != 0 {
		t.Fatalf("syncfs %v, fsync %v: the two writers should have shared one syncfs", d.syncfs, d.fsync)
	}
}

func TestGroupFailureStaysWithItsFile(t *testing.T) {
	bad := errors.New("input/output error")
	t.Run("a failed syncfs syncs each file alone, with its own error", func(t *testing.T) {
		d := newDisk()
		d.syncfsErr[1] = bad
		d.fsyncErr["b"] = bad
		errs := syncAll(t.Context(), commit.NewGroup(3, d.onSync), file{d, "a", 1}, file{d, "b", 1}, file{d, "c", 1})
		if !errors.Is(errs["b"], bad) || errs["a"] != nil || errs["c"] != nil {
			t.Fatalf("errors %v: only b's own fsync failed", errs)
		}
		slices.Sort(d.fsync)
		if !slices.Equal(d.fsync, []string{"a", "b", "c"}) {
			t.Fatalf("synced alone: %v, want every file of the failed filesystem", d.fsync)
		}
	})
	t.Run("a file's own write-back error is its alone", func(t *testing.T) {
		d := newDisk()
		d.settledErr["b"] = bad
		errs := syncAll(t.Context(), commit.NewGroup(3, d.onSync), file{d, "a", 1}, file{d, "b", 1}, file{d, "c", 1})
		if !errors.Is(errs["b"], bad) || errs["a"] != nil || errs["c"] != nil {
			t.Fatalf("errors %v: only b failed", errs)
		}
	})
}

func TestFileAloneIsSyncedAlone(t *testing.T) {
	d := newDisk()
	if err := commit.Sync(t.Context(), file{d, "outside", 1}); err != nil {
		t.Fatal(err)
	}
	noErrors(t, syncAll(t.Context(), commit.NewGroup(1, d.onSync), file{d, "alone", 1}))
	if !slices.Equal(d.fsync, []string{"outside", "alone"}) || len(d.syncfs) != 0 || len(d.groupSyncs) != 0 {
		t.Fatalf("fsync %v, syncfs %v: a file without company is synced alone", d.fsync, d.syncfs)
	}
}

func TestMemberGivingUpHoldsNoOneBack(t *testing.T) {
	d := newDisk()
	g := commit.NewGroup(2, d.onSync)
	ctx, cancel := context.WithCancel(commit.WithGroup(t.Context(), g))
	cancel()
	// Its context ended while it waited for the other member: it leaves
	// the round, unsynced, and the other is then alone.
	if err := commit.Sync(ctx, file{d, "a", 1}); !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want the context's", err)
	}
	g.Leave()
	if err := commit.Sync(commit.WithGroup(t.Context(), g), file{d, "b", 1}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d.fsync, []string{"b"}) || len(d.syncfs) != 0 {
		t.Fatalf("fsync %v, syncfs %v: only b should be synced, alone", d.fsync, d.syncfs)
	}
}
