package engine_test

import (
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/enginetest"
)

// witnesses stands in for the writer spotter: it counts the witnesses
// open per path and names whoever the test says.
type witnesses struct {
	mu     sync.Mutex
	open   map[string]int
	armed  int
	writer string
}

func newWitnesses(writer string) *witnesses {
	return &witnesses{open: map[string]int{}, writer: writer}
}

func (s *witnesses) watch(paths []string) engine.Witness {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.armed++
	for _, p := range paths {
		s.open[p]++
	}
	return &witness{s: s, paths: paths}
}

// armedCount is how many witnesses were armed.
func (s *witnesses) armedCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.armed
}

func (s *witnesses) opened(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.open[path]
}

type witness struct {
	s      *witnesses
	paths  []string
	closed bool
}

func (w *witness) Writer() string {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	return w.s.writer
}

func (w *witness) Close() {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	if !w.closed {
		w.closed = true
		for _, p := range w.paths {
			w.s.open[p]--
		}
	}
}

const sed = "pid 4242 (sed -i s/ours/theirs/ /etc/fought.conf) uid 1000"

func TestTheOtherWriterIsNamed(t *testing.T) {
	ws := newWitnesses(sed)
	logs := &enginetest.Logs{}
	opts := engine.Options{Contest: policy, Logger: slog.New(slog.NewTextHandler(logs, nil)),
		Watchers: engine.Watchers{Writers: ws.watch}}
	w, world := fight(t, fought, opts)

	w.advance(quick)
	w.strike(world)
	if got := ws.opened("/fake/fought"); got != 0 {
		t.Fatalf("%d witnesses after one repair, want none: one repair is drift", got)
	}
	w.next(changedEvent("fake#fought"))
	var contested *engine.Event
	for i := 2; i <= policy.Limit+1; i++ {
		w.advance(quick)
		w.strike(world)
		if got := ws.opened("/fake/fought"); got != 1 {
			t.Fatalf("repair %d: %d witnesses open, want one from the second repair on", i, got)
		}
		ev := w.next(changedEvent("fake#fought"))
		if ev.Contested {
			contested = ev
		} else if ev.Writer != "" {
			t.Fatalf("repair %d names a writer before the contest: %q", i, ev.Writer)
		}
	}
	if contested == nil || contested.Writer != sed {
		t.Fatalf("contested event %+v, want the writer %q", contested, sed)
	}
	if want := `writer="` + sed + `"`; strings.Count(logs.String(), want) != 1 || !strings.Contains(logs.String(), "contested: repaired too often") {
		t.Fatalf("the contest warning does not name the writer once:\n%s", logs)
	}
	if st := w.e.State(); st.Writers["fake#fought"] != sed {
		t.Fatalf("state %+v, want the writer of fake#fought", st)
	}
	for _, res := range w.e.Status().Resources {
		if res.ID == "fake#fought" && res.Writer != sed {
			t.Fatalf("status %+v, want the writer", res)
		}
	}
	if ws.armedCount() != 1 {
		t.Fatalf("%d witnesses armed during one fight, want 1", ws.armedCount())
	}

	// Left alone, it is calm: the witness is closed and nobody is named.
	w.advance(policy.MaxBackoff)
	w.advance(policy.MaxBackoff)
	if st := w.e.State(); st.Contested != 0 || len(st.Writers) != 0 {
		t.Fatalf("state %+v, want calm", st)
	}
	if got := ws.opened("/fake/fought"); got != 0 {
		t.Fatalf("%d witnesses open once calm, want none", got)
	}
}

func TestAWriterNobodyCouldNameIsUnknown(t *testing.T) {
	tests := []struct {
		name    string
		writers func([]string) engine.Witness
	}{
		{"the witness saw nobody", newWitnesses("").watch},
		{"no witnesses", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, world := fight(t, fought, engine.Options{Contest: policy, Watchers: engine.Watchers{Writers: tt.writers}})
			for range policy.Limit + 1 {
				w.advance(quick)
				w.strike(world)
			}
			ev := w.next(func(ev *engine.Event) bool { return ev.Contested })
			if ev.Writer != engine.UnknownWriter {
				t.Fatalf("writer %q, want %q", ev.Writer, engine.UnknownWriter)
			}
			if st := w.e.State(); st.Writers["fake#fought"] != engine.UnknownWriter {
				t.Fatalf("state %+v", st)
			}
		})
	}
}

func TestAWitnessEndsWithAFightThatNeverBecameAContest(t *testing.T) {
	ws := newWitnesses(sed)
	w, world := fight(t, fought, engine.Options{Contest: policy, Watchers: engine.Watchers{Writers: ws.watch}})
	for range 2 {
		w.advance(quick)
		w.strike(world)
	}
	if got := ws.opened("/fake/fought"); got != 1 {
		t.Fatalf("%d witnesses after two repairs, want 1", got)
	}
	// Calm defaults to the window.
	w.advance(policy.Window)
	if got := ws.opened("/fake/fought"); got != 0 {
		t.Fatalf("%d witnesses open a window after the last repair, want none", got)
	}
	// Repairs far apart are drift, not a fight.
	for range 3 {
		w.advance(2 * policy.Window)
		w.strike(world)
	}
	if ws.armedCount() != 1 || ws.opened("/fake/fought") != 0 {
		t.Fatalf("witnesses armed %d, open %d after repairs a window apart; want no new one", ws.armedCount(), ws.opened("/fake/fought"))
	}
}
