package pqueue_test

import (
	"fmt"

	"github.com/reactive-ccm/ccm/internal/pqueue"
)

// deadline is a poll due at a time; it keeps its place in the queue so
// that a path that stops being polled leaves it at once.
type deadline struct {
	path  string
	due   int
	index int
}

// Example orders polls by their deadline, takes one out from the middle
// and moves another, as the polling hub does.
func Example() {
	q := pqueue.New(func(a, b *deadline) bool { return a.due < b.due }, func(d *deadline) *int { return &d.index })
	motd, hosts, fstab := &deadline{path: "/etc/motd", due: 30}, &deadline{path: "/etc/hosts", due: 10}, &deadline{path: "/etc/fstab", due: 20}
	for _, d := range []*deadline{motd, hosts, fstab} {
		q.Push(d)
	}
	q.Remove(fstab)
	motd.due = 5
	q.Fix(motd)
	for q.Len() > 0 {
		d := q.Pop()
		fmt.Println(d.due, d.path, d.index)
	}
	fmt.Println("fstab's place once out:", fstab.index)
	// Output:
	// 5 /etc/motd -1
	// 10 /etc/hosts -1
	// fstab's place once out: -1
}
