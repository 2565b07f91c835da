package engine

import "container/heap"

// readyQueue holds runnable vertices, lowest topological position first,
// so unconstrained vertices start in manifest order.
type readyQueue []*node

var _ heap.Interface = (*readyQueue)(nil)

func (q readyQueue) Len() int           { return len(q) }
func (q readyQueue) Less(i, j int) bool { return q[i].pos < q[j].pos }
func (q readyQueue) Swap(i, j int) {
	q[i], q[j] = q[j], q[i]
	q[i].heapIndex = i
	q[j].heapIndex = j
}

func (q *readyQueue) Push(x any) {
	n := x.(*node)
	n.heapIndex = len(*q)
	*q = append(*q, n)
}

func (q *readyQueue) Pop() any {
	old := *q
	n := old[len(old)-1]
	old[len(old)-1] = nil
	*q = old[:len(old)-1]
	n.heapIndex = -1
	return n
}
