package pqueue_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/reactive-ccm/ccm/internal/pqueue"
)

type item struct {
	key, index int
}

func newQueue() pqueue.Queue[*item] {
	return pqueue.New(func(a, b *item) bool { return a.key < b.key }, func(i *item) *int { return &i.index })
}

// TestQueueOrdersAndTracksPlaces checks the queue against a sorted list
// through random pushes, pops, removals and changes of order, and that
// every item knows its place, or -1 once out.
func TestQueueOrdersAndTracksPlaces(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	q := newQueue()
	var in []*item
	for step := range 5000 {
		switch op := r.IntN(4); {
		case op == 0 || len(in) == 0:
			it := &item{key: r.IntN(100), index: -1}
			q.Push(it)
			in = append(in, it)
		case op == 1:
			it := q.Pop()
			if least := slices.MinFunc(in, func(a, b *item) int { return a.key - b.key }); it.key != least.key {
				t.Fatalf("step %d: popped %d, least is %d", step, it.key, least.key)
			}
			in = slices.DeleteFunc(in, func(x *item) bool { return x == it })
			if it.index != -1 {
				t.Fatalf("step %d: a popped item keeps index %d", step, it.index)
			}
		case op == 2:
			it := in[r.IntN(len(in))]
			q.Remove(it)
			in = slices.DeleteFunc(in, func(x *item) bool { return x == it })
			if it.index != -1 {
				t.Fatalf("step %d: a removed item keeps index %d", step, it.index)
			}
		default:
			it := in[r.IntN(len(in))]
			it.key = r.IntN(100)
			q.Fix(it)
		}
		if q.Len() != len(in) {
			t.Fatalf("step %d: %d items, want %d", step, q.Len(), len(in))
		}
		if q.Len() > 0 {
			if least := slices.MinFunc(in, func(a, b *item) int { return a.key - b.key }); q.Peek().key != least.key {
				t.Fatalf("step %d: peek %d, least %d", step, q.Peek().key, least.key)
			}
		}
	}
}
