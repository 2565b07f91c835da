package engine

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// legalMoves is every transition a vertex's life may make, written out
// once more by hand: the table in lifecycle.go must say exactly this.
var legalMoves = `
fresh introduce dirty
idle introduce dirty
dirty introduce dirty
queued introduce queued
running introduce rerun
rerun introduce rerun
blocked introduce blocked
retiring introduce retiring
removed introduce removed
fresh mark fresh
idle mark dirty
dirty mark dirty
queued mark queued
running mark rerun
rerun mark rerun
blocked mark blocked
retiring mark retiring
removed mark removed
dirty enqueue queued
blocked enqueue queued
queued unqueue dirty
queued take running
dirty take running
rerun settle running
running finish idle
rerun finish dirty
retiring finish removed
dirty block blocked
queued block blocked
fresh remove removed
idle remove removed
dirty remove removed
queued remove removed
blocked remove removed
running remove retiring
rerun remove retiring
`

func TestLifeMoves(t *testing.T) {
	want := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(legalMoves), "\n") {
		f := strings.Fields(line)
		want[f[0]+" "+f[1]] = f[2]
	}
	for l := fresh; l <= removed; l++ {
		for ev := introduce; ev <= remove; ev++ {
			key := l.String() + " " + ev.String()
			t.Run(key, func(t *testing.T) {
				to, legal := want[key]
				got, ok := l.next(ev)
				switch {
				case ok != legal:
					t.Fatalf("legal = %v, want %v", ok, legal)
				case ok && got.String() != to:
					t.Fatalf("leads to %s, want %s", got, to)
				}
				moved := l
				panicked := catch(func() { moved.move(ev) })
				if legal == (panicked != "") || (legal && moved.String() != to) {
					t.Fatalf("move: %s, panic %q", moved, panicked)
				}
				if !legal && !strings.Contains(panicked, "a vertex that is "+l.String()+" cannot "+ev.String()) {
					t.Fatalf("panic %q does not say what went wrong", panicked)
				}
			})
		}
	}
}

func catch(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

// TestLifePredicates holds what the scheduler asks of a life to the
// states: which have a check to come, which a worker holds, which a
// reload dropped.
func TestLifePredicates(t *testing.T) {
	for _, tc := range []struct {
		l                    life
		marked, busy, isGone bool
	}{
		{fresh, false, false, false},
		{idle, false, false, false},
		{dirty, true, false, false},
		{queued, true, false, false},
		{running, false, true, false},
		{rerun, true, true, false},
		{blocked, true, false, false},
		{retiring, false, true, true},
		{removed, false, false, true},
	} {
		if tc.l.marked() != tc.marked || tc.l.busy() != tc.busy || tc.l.gone() != tc.isGone {
			t.Errorf("%s: marked %v busy %v gone %v", tc.l, tc.l.marked(), tc.l.busy(), tc.l.gone())
		}
	}
}

// TestMarkDirtyKeepsTheFirstCause drives node.markDirty through a
// vertex's life: a fresh vertex ignores everything but its introduction,
// the first cause since the last run stands but for startup, reload and a
// changed source, and a gone vertex ignores every mark.
func TestMarkDirtyKeepsTheFirstCause(t *testing.T) {
	n := &node{}
	step := func(t Trigger) string {
		n.markDirty(t, time.Time{})
		return n.life.String() + "/" + string(n.trigger)
	}
	var got []string
	for _, tr := range []Trigger{TriggerDrift, TriggerStartup, TriggerDrift, TriggerSource, TriggerPoll, TriggerReload} {
		got = append(got, step(tr))
	}
	n.life.move(take)
	got = append(got, step(TriggerDrift), step(TriggerRefresh))
	n.life.move(remove)
	got = append(got, step(TriggerReload))
	want := "fresh/ dirty/startup dirty/startup dirty/source dirty/source dirty/reload " +
		"rerun/drift rerun/drift retiring/drift"
	if strings.Join(got, " ") != want {
		t.Fatalf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
}
