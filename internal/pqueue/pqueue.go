// Package pqueue is a priority queue of items that keep their own place
// in it (a pointer's index field), so that one can be taken out or moved
// from anywhere in logarithmic time: the engine's ready vertices, the
// polling hub's deadlines. It is not safe for concurrent use; its owner
// guards it.
package pqueue

import "container/heap"

// Queue holds items, the least first.
type Queue[T any] struct {
	h items[T]
}

// New returns an empty queue ordered by less, whose items keep their
// index where index points: -1 while they are not in the queue.
func New[T any](less func(a, b T) bool, index func(T) *int) Queue[T] {
	return Queue[T]{h: items[T]{less: less, index: index}}
}

// Len returns how many items the queue holds.
func (q *Queue[T]) Len() int { return len(q.h.list) }

// Peek returns the least item; the queue must not be empty.
func (q *Queue[T]) Peek() T { return q.h.list[0] }

// Push adds x.
func (q *Queue[T]) Push(x T) { heap.Push(&q.h, x) }

// Pop takes the least item out; the queue must not be empty.
func (q *Queue[T]) Pop() T { return heap.Pop(&q.h).(T) }

// Remove takes x out; x must be in the queue.
func (q *Queue[T]) Remove(x T) { heap.Remove(&q.h, *q.h.index(x)) }

// Fix puts x back in its place after its order changed; x must be in the
// queue.
func (q *Queue[T]) Fix(x T) { heap.Fix(&q.h, *q.h.index(x)) }

// items is the heap.Interface behind a Queue.
type items[T any] struct {
	list  []T
	less  func(a, b T) bool
	index func(T) *int
}

func (h items[T]) Len() int           { return len(h.list) }
func (h items[T]) Less(i, j int) bool { return h.less(h.list[i], h.list[j]) }

func (h items[T]) Swap(i, j int) {
	h.list[i], h.list[j] = h.list[j], h.list[i]
	*h.index(h.list[i]) = i
	*h.index(h.list[j]) = j
}

func (h *items[T]) Push(x any) {
	t := x.(T)
	*h.index(t) = len(h.list)
	h.list = append(h.list, t)
}

func (h *items[T]) Pop() any {
	n := len(h.list) - 1
	t := h.list[n]
	var zero T
	h.list[n] = zero
	h.list = h.list[:n]
	*h.index(t) = -1
	return t
}
