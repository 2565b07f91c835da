package poll

import (
	"slices"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/internal/pqueue"
	"github.com/reactive-ccm/ccm/watchers/clock"
)

// reg is a registration due in `in`, polled every interval.
type reg struct {
	name         string
	interval, in time.Duration
}

// TestFireTakesWhatIsDueWithinItsSlack: one wake-up fires the
// registrations due within a tenth of their interval (at most maxSlack),
// in deadline then registration order, re-arms each an interval later
// give or take 10%, keeps them all, and says when the first left is due.
func TestFireTakesWhatIsDueWithinItsSlack(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name string
		regs []reg
		want []string
		next time.Duration
	}{
		{"nothing registered", nil, nil, time.Hour},
		{"in deadline, then registration order", []reg{{"later", time.Minute, 0}, {"again", time.Minute, 0}, {"overdue", time.Minute, -time.Second}},
			[]string{"overdue", "later", "again"}, 54 * time.Second},
		{"a tenth of the interval early", []reg{{"1s in 100ms", time.Second, 100 * time.Millisecond}, {"1s in 101ms", time.Second, 101 * time.Millisecond}},
			[]string{"1s in 100ms"}, 101 * time.Millisecond},
		{"at most maxSlack early", []reg{{"1h in maxSlack", time.Hour, maxSlack}, {"1h past it", time.Hour, maxSlack + time.Millisecond}},
			[]string{"1h in maxSlack"}, maxSlack + time.Millisecond},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := &Hub{clock: clock.NewFake(now), queue: pqueue.New(earlier, func(e *entry) *int { return &e.index })}
			var got []string
			var entries []*entry
			for _, r := range c.regs {
				h.seq++
				e := &entry{interval: r.interval, next: now.Add(r.in), seq: h.seq, notify: func() { got = append(got, r.name) }}
				h.queue.Push(e)
				entries = append(entries, e)
			}
			next := h.fire(now)
			if !slices.Equal(got, c.want) {
				t.Fatalf("fired %q, want %q", got, c.want)
			}
			// A minute's registrations re-armed 54s to 66s on: the
			// first left is due no sooner than 54s.
			if d := next.Sub(now); d != c.next && (c.next != 54*time.Second || d < c.next || d > 66*time.Second) {
				t.Fatalf("next due %s on, want %s", d, c.next)
			}
			for i, e := range entries {
				if slices.Contains(c.want, c.regs[i].name) {
					if d := e.next.Sub(now); d < c.regs[i].interval*9/10 || d > c.regs[i].interval*11/10 {
						t.Fatalf("%s re-armed %s on, want its interval ±10%%", c.regs[i].name, d)
					}
				}
			}
			if h.queue.Len() != len(c.regs) {
				t.Fatalf("%d registrations left, want every one kept", h.queue.Len())
			}
		})
	}
}

func TestJitterStaysWithinATenth(t *testing.T) {
	var lo, hi bool
	for range 1000 {
		d := jittered(time.Second)
		if d < 900*time.Millisecond || d > 1100*time.Millisecond {
			t.Fatalf("jittered(1s) = %s", d)
		}
		lo, hi = lo || d < 990*time.Millisecond, hi || d > 1010*time.Millisecond
	}
	if !lo || !hi {
		t.Fatalf("1000 jitters never left ±1%% on one side (below: %t, above: %t)", lo, hi)
	}
}
