package engine_test

import (
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/enginetest"
)

// crowd starts a watching engine on width fakes, f0 to f(width-1), each
// holding "ours" and watched with props, with the echo of ccm's own
// writes delivered like inotify does.
func crowd(t *testing.T, width int, props string, opts engine.Options) (*watching, *world) {
	t.Helper()
	var m strings.Builder
	m.WriteString("- fake:\n")
	for i := range width {
		fmt.Fprintf(&m, "    - f%d: {value: \"ours\", %s}\n", i, props)
	}
	world := newWorld(t)
	w := startWatching(t, load(t, m.String()), opts)
	for range width {
		w.next(func(ev *engine.Event) bool { return ev.Changed })
	}
	world.mu.Lock()
	world.applied = func(name string) { w.src.fire("/fake/" + name) }
	world.mu.Unlock()
	w.idle()
	return w, world
}

// TestContestFollowsTheWritersRhythm: a fight is another writer undoing
// ccm's repairs as soon as they are made, again and again; a burst that
// changes many resources at once, and a script that changes them every
// few seconds, are drift, repaired each time.
func TestContestFollowsTheWritersRhythm(t *testing.T) {
	for _, tc := range []struct {
		name string
		// width resources change at once, every interval, rounds times.
		width    int
		every    time.Duration
		rounds   int
		contest  engine.ContestPolicy
		pollOnly bool
		// contestedAt is the round whose repairs are reported contested;
		// 0 for never.
		contestedAt int
	}{
		{name: "rm -rf of 200 files every 3s", width: 200, every: 3 * time.Second, rounds: 20, contest: policy},
		{name: "rm -rf of 200 files every 1.1s", width: 200, every: 1100 * time.Millisecond, rounds: 20, contest: policy},
		{name: "one file deleted every 3s", width: 1, every: 3 * time.Second, rounds: 40, contest: policy},
		{name: "one file rewritten 10 times a second", width: 1, every: 100 * time.Millisecond, rounds: 20, contest: policy, contestedAt: policy.Limit + 1},
		{name: "200 files rewritten 10 times a second", width: 200, every: 100 * time.Millisecond, rounds: 10, contest: policy, contestedAt: policy.Limit + 1},
		{name: "one file every 900ms", width: 1, every: 900 * time.Millisecond, rounds: 20, contest: policy, contestedAt: policy.Limit + 1},
		{name: "one file every 3s with the gap as long as the window", width: 1, every: 3 * time.Second, rounds: 20,
			contest: withGap(policy, policy.Window), contestedAt: policy.Limit + 1},
		{name: "a writer faster than a 10s poll", width: 1, every: 10 * time.Second, rounds: 20, contest: policy, pollOnly: true, contestedAt: policy.Limit + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := newWitnesses("pid 7 (writer) uid 0")
			logs := &enginetest.Logs{}
			props := "watch: true"
			if tc.pollOnly {
				props = "poll: " + tc.every.String()
			}
			w, world := crowd(t, tc.width, props, engine.Options{Contest: tc.contest, Logger: slog.New(slog.NewTextHandler(logs, nil)),
				Watchers: engine.Watchers{Writers: ws.watch}})
			contestedAt := 0
			for round := 1; round <= tc.rounds; round++ {
				w.advance(tc.every)
				for i := range tc.width {
					world.set(fmt.Sprintf("f%d", i), "theirs")
				}
				for i := range tc.width {
					if tc.pollOnly {
						w.src.fire("poll:" + tc.every.String())
						break
					}
					w.src.fire(fmt.Sprintf("/fake/f%d", i))
				}
				w.idle()
				contested := 0
				for len(w.events) > 0 {
					if (<-w.events).Contested {
						contested++
					}
				}
				if contested > 0 && contestedAt == 0 {
					contestedAt = round
					if contested != tc.width {
						t.Fatalf("round %d: %d of %d resources reported contested, want all at once", round, contested, tc.width)
					}
				}
				if contestedAt == 0 {
					for i := range tc.width {
						if got := world.get(fmt.Sprintf("f%d", i)); got != "ours" {
							t.Fatalf("round %d: f%d holds %q, want it repaired at once", round, i, got)
						}
					}
				}
			}
			if contestedAt != tc.contestedAt {
				t.Fatalf("contested at round %d, want %d (0: never)", contestedAt, tc.contestedAt)
			}
			warnings := strings.Count(logs.String(), "contested: repaired too often")
			if tc.contestedAt == 0 {
				if ws.armedCount() != 0 || warnings != 0 {
					t.Fatalf("%d witnesses armed and %d contest warnings for drift that is no fight", ws.armedCount(), warnings)
				}
				return
			}
			if warnings != tc.width {
				t.Fatalf("%d contest warnings, want one per resource (%d)", warnings, tc.width)
			}
		})
	}
}

// TestAPauseLongerThanTheGapStartsTheCountAfresh: repairs are counted in
// episodes; drift seen longer than the gap after the last repair starts a
// new one.
func TestAPauseLongerThanTheGapStartsTheCountAfresh(t *testing.T) {
	w, world := fight(t, fought, engine.Options{Contest: policy})
	strikes := func(n int) (contested bool) {
		for range n {
			w.advance(100 * time.Millisecond)
			w.strike(world)
			for len(w.events) > 0 {
				contested = contested || (<-w.events).Contested
			}
		}
		return contested
	}
	for range 10 {
		if strikes(policy.Limit) {
			t.Fatalf("contested after episodes of %d repairs, want a count started afresh after each pause", policy.Limit)
		}
		w.advance(policy.Gap + time.Millisecond)
	}
	if !strikes(policy.Limit + 1) {
		t.Fatalf("%d repairs in one episode, want contested", policy.Limit+1)
	}
}

func withGap(p engine.ContestPolicy, gap time.Duration) engine.ContestPolicy {
	p.Gap = gap
	return p
}
