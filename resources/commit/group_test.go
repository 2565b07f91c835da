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
// order: "sync NAME" for an fsync, "syncfs NAME" for a syncfs through the file and "settled NAME" for the
// look at its own errors after one. Its files each hold a page.
type disk struct {
	mu         sync.Mutex
	log        []string
	syncErr    map[string]error
	syncfsErr  error
	groupSyncs []int
	// dirty is the dirty page cache the groups of the test measure.
	dirty int64
}

func newDisk() *disk {
	return &disk{syncErr: map[string]error{}}
}

// crowded returns a disk whose dirty page cache holds far more than its
// files: a neighbour's writes.
func crowded() *disk {
	d := newDisk()
	d.dirty = 1 << 30
	return d
}

// group returns a group of members on d, measuring d's dirty page cache.
func (d *disk) group(members int) *commit.Group { return d.groupOfRun(members, members) }

// groupOfRun returns a group of members formed when its run had run files
// still to sync.
func (d *disk) groupOfRun(members, run int) *commit.Group {
	g := commit.NewGroup(members, run, d.onSync)
	g.SetDirty(func() (int64, bool) { return d.dirty, d.dirty >= 0 })
	return g
}

// onSync is the group's hook: it records how many files each round made
// durable together.
func (d *disk) onSync(files int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.groupSyncs = append(d.groupSyncs, files)
}

// did returns the names the log shows step for, in order.
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

// file is a written file on the disk, on filesystem dev.
type file struct {
	d    *disk
	name string
	dev  uint64
}

var _ commit.Durable = file{}

func (f file) StartSync()     { _ = f.record("start") }
func (f file) Sync() error    { return f.record("sync") }
func (f file) Device() uint64 { return f.dev }
func (f file) Size() int64    { return 100 }
func (f file) Settled() error { return f.record("settled") }
func (f file) SyncFS() error {
	_ = f.record("syncfs")
	return f.d.syncfsErr
}

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
			err := commit.Sync(commit.WithGroup(ctx, g, nil), f)
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

func TestCrowdedGroupSyncsEachFileInOneRound(t *testing.T) {
	d := crowded()
	names := []string{"a", "b", "c", "d", "e", "f", "g"}
	var files []file
	for _, n := range names {
		files = append(files, file{d, n, 1})
	}
	g := d.group(len(files))
	noErrors(t, syncAll(t.Context(), g, files...))
	if !slices.Equal(d.groupSyncs, []int{7}) {
		t.Fatalf("the group's rounds covered %v files, want one of 7", d.groupSyncs)
	}
	// A neighbour's data is dirty: no syncfs, which would wait for it.
	if !slices.Equal(sorted(d.did("sync")), names) || len(d.did("syncfs")) != 0 {
		t.Fatalf("log %v: every file synced once, by its own fsync", d.log)
	}
}

func TestGroupWaitsOnlyForMembersStillRunning(t *testing.T) {
	d := crowded()
	// The third member ends without writing anything: the two others
	// share a round once it has left, whenever that is.
	g := d.group(3)
	done := make(chan map[string]error)
	go func() { done <- syncAll(t.Context(), g, file{d, "a", 1}, file{d, "b", 1}) }()
	g.Leave()
	noErrors(t, <-done)
	if !slices.Equal(d.groupSyncs, []int{2}) || !slices.Equal(sorted(d.did("sync")), []string{"a", "b"}) {
		t.Fatalf("rounds %v, log %v: the two writers should have shared one round", d.groupSyncs, d.log)
	}
}

func TestGroupFailureStaysWithItsFile(t *testing.T) {
	bad := errors.New("input/output error")
	d := crowded()
	d.syncErr["b"] = bad
	errs := syncAll(t.Context(), d.group(3), file{d, "a", 1}, file{d, "b", 1}, file{d, "c", 1})
	if !errors.Is(errs["b"], bad) || errs["a"] != nil || errs["c"] != nil {
		t.Fatalf("errors %v: only b failed", errs)
	}
	if !slices.Equal(sorted(d.did("sync")), []string{"a", "b", "c"}) {
		t.Fatalf("synced: %v, want every file", d.did("sync"))
	}
}

func TestFileAloneIsSyncedAlone(t *testing.T) {
	d := newDisk()
	if err := commit.Sync(t.Context(), file{d, "outside", 1}); err != nil {
		t.Fatal(err)
	}
	noErrors(t, syncAll(t.Context(), d.group(1), file{d, "alone", 1}))
	if !slices.Equal(d.did("sync"), []string{"outside", "alone"}) || len(d.groupSyncs) != 0 {
		t.Fatalf("log %v, rounds %v: a file without company is synced alone", d.log, d.groupSyncs)
	}
}

func TestMemberGivingUpHoldsNoOneBack(t *testing.T) {
	d := newDisk()
	g := d.group(2)
	ctx, cancel := context.WithCancel(commit.WithGroup(t.Context(), g, nil))
	cancel()
	// Its context ended while it waited for the other member: it leaves
	// the round, unsynced, and the other is then alone.
	if err := commit.Sync(ctx, file{d, "a", 1}); !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want the context's", err)
	}
	g.Leave()
	if err := commit.Sync(commit.WithGroup(t.Context(), g, nil), file{d, "b", 1}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d.did("sync"), []string{"b"}) || len(d.groupSyncs) != 0 {
		t.Fatalf("log %v, rounds %v: only b should be synced, alone", d.log, d.groupSyncs)
	}
}

func TestQuietGroupSyncsEachFilesystemOnce(t *testing.T) {
	d := newDisk()
	// Nothing dirty but the round's own three pages.
	d.dirty = 3 * commit.PageSize
	errs := syncAll(t.Context(), d.group(3), file{d, "a", 1}, file{d, "b", 1}, file{d, "c", 2})
	noErrors(t, errs)
	synced := d.did("syncfs")
	if len(synced) != 2 || slices.Contains(synced, "a") == slices.Contains(synced, "b") || !slices.Contains(synced, "c") {
		t.Fatalf("syncfs through %v, want one per filesystem", synced)
	}
	if !slices.Equal(sorted(d.did("settled")), []string{"a", "b", "c"}) || len(d.did("sync")) != 0 {
		t.Fatalf("log %v: each file's errors looked at after the syncfs, none synced again", d.log)
	}
}

func TestGroupSyncsFilesystemOnlyWhileDirtyIsItsOwn(t *testing.T) {
	// The most a round of three one-page files lets be dirty and still
	// syncs its filesystem, alone in its run and with 1,000 files of its
	// run still to sync, which the neighbour's data once written back no
	// longer delays.
	most := func(run int) int64 { return 3*commit.PageSize + int64(run)*commit.ForeignPerFile }
	for _, c := range []struct {
		name       string
		run        int
		dirty      int64
		wantSyncfs bool
	}{
		{"the round's own and a little more", 3, most(3), true},
		{"a neighbour's data besides", 3, most(3) + 1, false},
		{"a neighbour's data in a large run", 1000, most(1000), true},
		{"more than syncing the run's files alone costs", 1000, most(1000) + 1, false},
		{"dirty page cache unknown", 1000, -1, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := newDisk()
			d.dirty = c.dirty
			noErrors(t, syncAll(t.Context(), d.groupOfRun(3, c.run), file{d, "a", 1}, file{d, "b", 1}, file{d, "c", 1}))
			syncfs, synced := len(d.did("syncfs")), sorted(d.did("sync"))
			if c.wantSyncfs && (syncfs != 1 || len(synced) != 0) || !c.wantSyncfs && (syncfs != 0 || !slices.Equal(synced, []string{"a", "b", "c"})) {
				t.Fatalf("log %v: syncfs wanted %v", d.log, c.wantSyncfs)
			}
		})
	}
}

func TestFilesystemFailureSyncsEachFile(t *testing.T) {
	bad := errors.New("input/output error")
	d := newDisk()
	d.syncfsErr = errors.New("syncfs: input/output error")
	d.syncErr["b"] = bad
	errs := syncAll(t.Context(), d.group(3), file{d, "a", 1}, file{d, "b", 1}, file{d, "c", 1})
	// The filesystem's error may be another program's file's: each file's
	// own fsync tells.
	if !errors.Is(errs["b"], bad) || errs["a"] != nil || errs["c"] != nil {
		t.Fatalf("errors %v: only b failed", errs)
	}
	if len(d.did("syncfs")) != 1 || !slices.Equal(sorted(d.did("sync")), []string{"a", "b", "c"}) {
		t.Fatalf("log %v: after the failed syncfs, every file synced alone", d.log)
	}
}

func TestDirtyBytesReadsTheMachines(t *testing.T) {
	if n, ok := commit.DirtyBytes(); !ok || n < 0 {
		t.Fatalf("dirty page cache %d, %v: want it read from /proc/meminfo", n, ok)
	}
}
