package engine_test

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
)

// groupManifest has ten independent fakes that join commit groups,
// between two that run alone: the ten become ready together when first
// is done.
const groupManifest = `
- fake:
    - first: {value: "1"}
- fake:
    - defaults: {independent: true, commit: true}
    - a: {value: "1"}
    - b: {value: "1"}
    - c: {value: "1"}
    - d: {value: "1"}
    - e: {value: "1", fail: %s}
    - f: {value: "1"}
    - g: {value: "1"}
    - h: {value: "1"}
    - i: {value: "1"}
    - j: {value: "1"}
- fake:
    - last: {value: "1"}
`

func TestReadyWritersShareOneSync(t *testing.T) {
	cases := []struct {
		name        string
		groupCommit int
		fail        string
		// wantSyncs lists the files each round of a group synced
		// together; wantAlone counts the writes synced alone.
		wantSyncs []int
		wantAlone int32
		wantFail  []string
	}{
		{"the ten share one sync", 0, "false", []int{10}, 0, nil},
		{"a member that fails fails alone", 0, "true", []int{9}, 0, []string{"fake#e"}},
		{"groups of a quarter of the bound wait for room rather than sync alone", 8, "false", []int{2, 2, 2, 2, 2}, 0, nil},
		{"group commit off", 1, "false", nil, 10, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			var mu sync.Mutex
			var syncs []int
			opts := engine.Options{Workers: 8, GroupCommit: c.groupCommit, OnGroupSync: func(files int) {
				mu.Lock()
				defer mu.Unlock()
				syncs = append(syncs, files)
			}}
			sum, rec := runOnce(t, load(t, fmt.Sprintf(groupManifest, c.fail)), opts)
			grouped := int32(0)
			for _, n := range c.wantSyncs {
				grouped += int32(n)
			}
			if !slices.Equal(syncs, c.wantSyncs) || w.syncfs.Load() != int32(len(c.wantSyncs)) || w.settled.Load() != grouped || w.fsync.Load() != c.wantAlone {
				t.Fatalf("group syncs %v (syncfs %d, covering %d), alone %d; want %v, alone %d", syncs, w.syncfs.Load(), w.settled.Load(), w.fsync.Load(), c.wantSyncs, c.wantAlone)
			}
			var failed []string
			for id, ev := range rec.byID() {
				if ev.Failed {
					failed = append(failed, id)
				}
			}
			if !slices.Equal(failed, c.wantFail) || sum.OK() != (c.wantFail == nil) {
				t.Fatalf("failed %v, want %v", failed, c.wantFail)
			}
			w.bracketed(t, "the group")
		})
	}
}

func TestFailOnErrorTakesNoCommitGroup(t *testing.T) {
	w := newWorld(t)
	g := load(t, `
ccm:
  fail_on_error: true
  resources:
    - fake:
        - defaults: {independent: true, commit: true}
        - a: {value: "1"}
        - b: {value: "1"}
        - c: {value: "1"}
`)
	opts := engine.Options{Workers: 8, OnGroupSync: func(files int) { t.Errorf("a group synced %d files under fail_on_error", files) }}
	if sum, _ := runOnce(t, g, opts); !sum.OK() || w.fsync.Load() != 3 {
		t.Fatalf("summary %+v, %d synced alone; want all three, alone", sum, w.fsync.Load())
	}
}

// A commit group's members run one after another while each ends without
// waiting: once one waits in the group's sync, or has run too long, the
// members left start at once.
func TestCommitGroupMembersStartInTurn(t *testing.T) {
	cases := []struct {
		name string
		// patience is how long a member runs before the members left
		// start; holdChecks holds each member's first check until
		// all ten are checking, for at most a few seconds.
		patience   time.Duration
		holdChecks bool
	}{
		{"the members left start when one waits in the sync", time.Hour, false},
		{"the members left start when one is held up elsewhere", 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			if c.patience > 0 {
				engine.SetRelayPatience(t, c.patience)
			}
			var mu sync.Mutex
			checking, all := map[string]bool{}, make(chan struct{})
			var gaveUp atomic.Int32
			if c.holdChecks {
				w.checking = func(name string) {
					mu.Lock()
					first := len(name) == 1 && !checking[name]
					checking[name] = true
					if first && len(checking) == 10 {
						close(all)
					}
					mu.Unlock()
					if !first {
						return
					}
					select {
					case <-all:
					case <-time.After(5 * time.Second):
						gaveUp.Add(1)
					}
				}
			}
			// A member left waiting in the sync fails at its apply's
			// deadline.
			opts := engine.Options{Workers: 8, Timeouts: map[string]time.Duration{"fake": 5 * time.Second}}
			sum, _ := runOnce(t, load(t, fmt.Sprintf(groupManifest, "false")), opts)
			if !sum.OK() || w.syncfs.Load() != 1 || w.settled.Load() != 10 || gaveUp.Load() != 0 {
				t.Fatalf("ok %v, %d group syncs covering %d files, %d checks held up alone; want all ten in one sync, none held up alone",
					sum.OK(), w.syncfs.Load(), w.settled.Load(), gaveUp.Load())
			}
		})
	}
}
