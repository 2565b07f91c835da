package kernel_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/reactive-ccm/ccm/watchers/inotify/internal/kernel"
)

// record is a struct inotify_event as the kernel writes it: the name
// NUL-padded to a multiple of the header's size.
func record(wd int32, mask uint32, name string) []byte {
	size := 0
	if name != "" {
		size = (len(name) + unix.SizeofInotifyEvent) / unix.SizeofInotifyEvent * unix.SizeofInotifyEvent
	}
	b := make([]byte, unix.SizeofInotifyEvent+size)
	binary.NativeEndian.PutUint32(b[0:], uint32(wd))
	binary.NativeEndian.PutUint32(b[4:], mask)
	binary.NativeEndian.PutUint32(b[12:], uint32(size))
	copy(b[unix.SizeofInotifyEvent:], name)
	return b
}

// opened is an instance nobody reads in the background, watching a
// directory for every child event.
func opened(t *testing.T) (in *kernel.Instance, dir string) {
	t.Helper()
	in, err := kernel.Open()
	must(t, err)
	t.Cleanup(func() { in.Close() })
	dir = t.TempDir()
	must(t, in.Watch(dir, children))
	return in, dir
}

// batches drains in, keeping each read's event paths apart.
func batches(t *testing.T, in *kernel.Instance) [][]string {
	t.Helper()
	var out [][]string
	must(t, in.Drain(func(evs []kernel.Event) {
		var paths []string
		for _, ev := range evs {
			paths = append(paths, ev.Path())
		}
		out = append(out, paths)
	}))
	return out
}

// longName is the i-th of a set of names of n bytes.
func longName(i, n int) string {
	s := fmt.Sprintf("%04d", i)
	return s + strings.Repeat("x", n-len(s))
}

// A burst that takes several reads is handed over one read at a time,
// every event under its own name: Drain used to parse every read into
// one buffer and return them together, so the names of all but the last
// read were those of later events (issue 22).
func TestDrainNamesEveryEventOfABurstLongerThanARead(t *testing.T) {
	in, dir := opened(t)
	var want []string
	for i := range 400 {
		// 224-byte events: 400 of them take two reads.
		path := filepath.Join(dir, longName(i, 200))
		f, err := os.Create(path)
		must(t, err)
		must(t, f.Close())
		want = append(want, path)
	}
	var got []string
	var kept [][]byte
	reads := 0
	must(t, in.Drain(func(evs []kernel.Event) {
		reads++
		for _, ev := range evs {
			got = append(got, ev.Path())
			kept = append(kept, ev.Name)
		}
	}))
	if reads < 2 {
		t.Fatalf("the burst took %d read; the test needs several", reads)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("events named %d paths, %d of them wrong; want the %d created, in order",
			len(got), countDiff(got, want), len(want))
	}
	for _, name := range kept {
		if bytes.ContainsFunc(name, func(r rune) bool { return r != 0 }) {
			t.Fatalf("a name kept past its handler still reads %q; want it cleared", name)
		}
	}
}

func countDiff(got, want []string) int {
	n := max(len(got), len(want)) - min(len(got), len(want))
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			n++
		}
	}
	return n
}

// Names of every length the kernel allows come through whole, from the
// kernel and from crafted reads, many events to a read.
func TestNamesOfEveryLength(t *testing.T) {
	t.Run("kernel", func(t *testing.T) {
		in, dir := opened(t)
		var want []string
		for n := 1; n <= unix.NAME_MAX; n++ {
			path := filepath.Join(dir, longName(n, max(n, 4))[max(0, 4-n):])
			must(t, os.Mkdir(path, 0o755))
			want = append(want, path)
		}
		got := slices.Concat(batches(t, in)...)
		if !slices.Equal(got, want) {
			t.Fatalf("%d of %d names wrong", countDiff(got, want), len(want))
		}
	})
	t.Run("crafted", func(t *testing.T) {
		in, dir := opened(t)
		var raw []byte
		var want []string
		for n := 1; n <= unix.NAME_MAX; n++ {
			name := strings.Repeat(string(rune('a'+n%26)), n)
			raw = append(raw, record(in.Wd(dir), unix.IN_CREATE, name)...)
			want = append(want, filepath.Join(dir, name))
		}
		in.Feed(nil, raw)
		got := batches(t, in)
		if len(got) != 1 || !slices.Equal(got[0], want) {
			t.Fatalf("got %d reads, %d names wrong; want one read of %d", len(got), countDiff(slices.Concat(got...), want), len(want))
		}
	})
}

// The second read reuses the first one's buffer: it happens only after
// the first read's handler returned, and by then a name that handler
// kept reads as NULs, never as the second read's name.
func TestABufferIsReusedOnlyOnceItsEventsAreHandled(t *testing.T) {
	in, dir := opened(t)
	wd := in.Wd(dir)
	var kept []byte
	reads, handled := 0, 0
	in.Feed(func() {
		reads++
		if reads == 2 && !bytes.Equal(kept, make([]byte, len("first"))) {
			t.Errorf("the first read's name reads %q when the second read begins; want NULs", kept)
		}
	},
		slices.Concat(record(wd, unix.IN_DELETE, "first"), record(wd, unix.IN_ATTRIB, "")),
		record(wd, unix.IN_DELETE, "later"))
	var got []string
	must(t, in.Drain(func(evs []kernel.Event) {
		handled++
		if reads != handled {
			t.Fatalf("handler %d runs after %d reads", handled, reads)
		}
		if kept == nil {
			kept = evs[0].Name
		}
		for _, ev := range evs {
			got = append(got, ev.Path())
		}
	}))
	if want := []string{filepath.Join(dir, "first"), dir, filepath.Join(dir, "later")}; handled != 2 || !slices.Equal(got, want) {
		t.Fatalf("%d reads handled, naming %q; want 2, naming %q", handled, got, want)
	}
}

// Read hands each read over on its own, a crafted read as the kernel's.
// A read that filled the buffer is followed by another at once; one that
// left room for the longest event emptied the queue, so the reader waits
// for the poller: reading again to see EAGAIN was a system call more per
// wake-up beside a busy neighbour.
func TestReadWaitsOnlyAfterAReadThatEmptiedTheQueue(t *testing.T) {
	in, dir := opened(t)
	wd := in.Wd(dir)
	// 32-byte records fill a read exactly.
	var full []byte
	for len(full) < kernel.ReadSize {
		full = append(full, record(wd, unix.IN_CREATE, "fifteen-bytes..")...)
	}
	var reads atomic.Int32
	in.Feed(func() { reads.Add(1) }, full, record(wd, unix.IN_CREATE, "rest"), record(wd, unix.IN_CREATE, "woken"))
	handed := make(chan []string, 3)
	done := make(chan error, 1)
	go func() {
		done <- in.Read(func(evs []kernel.Event) {
			handed <- []string{string(evs[0].Name), string(evs[len(evs)-1].Name), fmt.Sprint(len(evs))}
		})
	}()
	next := func(want ...string) {
		t.Helper()
		select {
		case got := <-handed:
			if !slices.Equal(got, want) {
				t.Fatalf("a read handed over %q (first, last, count), want %q", got, want)
			}
		case <-time.After(patience):
			t.Fatalf("no read handed over; want %q", want)
		}
	}
	next("fifteen-bytes..", "fifteen-bytes..", fmt.Sprint(kernel.ReadSize/32))
	next("rest", "rest", "1")
	waitForStack(t, "internal/poll.runtime_pollWait")
	if n := reads.Load(); n != 2 {
		t.Fatalf("the reader waits after %d reads, want 2: none after the read that emptied the queue", n)
	}
	// A new event wakes the reader, which reads (the next crafted read).
	must(t, os.Mkdir(filepath.Join(dir, "wake"), 0o755))
	next("woken", "woken", "1")
	must(t, in.Close())
	if err := <-done; !errors.Is(err, kernel.ErrClosed) {
		t.Fatalf("Read after Close: %v, want ErrClosed", err)
	}
}

// The kernel never splits an event across reads: a read returns as many
// whole events as fit, and fails with EINVAL when not even the next one
// does. The reader relies on it; a record cut short anyway (crafted
// here) loses events, and is reported as a queue overflow so that
// everything is looked at again.
func TestAnEventIsNeverSplitAcrossReads(t *testing.T) {
	t.Run("kernel", func(t *testing.T) {
		dir := t.TempDir()
		fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
		must(t, err)
		defer unix.Close(fd)
		_, err = unix.InotifyAddWatch(fd, dir, unix.IN_CREATE)
		must(t, err)
		for n := 1; n <= 100; n++ {
			must(t, os.Mkdir(filepath.Join(dir, strings.Repeat("d", n)), 0o755))
		}
		if _, err := unix.Read(fd, make([]byte, unix.SizeofInotifyEvent+8)); err != unix.EINVAL {
			t.Fatalf("a read too small for the next event: %v, want EINVAL", err)
		}
		// 300 bytes is not a multiple of any event's size here.
		buf := make([]byte, 300)
		for seen := 0; seen < 100; {
			n, err := unix.Read(fd, buf)
			must(t, err)
			for raw := buf[:n]; len(raw) > 0; seen++ {
				end := unix.SizeofInotifyEvent + int(binary.NativeEndian.Uint32(raw[12:]))
				if end > len(raw) {
					t.Fatalf("a read of %d bytes ends inside an event", n)
				}
				raw = raw[end:]
			}
		}
	})
	t.Run("crafted", func(t *testing.T) {
		in, dir := opened(t)
		whole := record(in.Wd(dir), unix.IN_CREATE, "whole")
		cut := record(in.Wd(dir), unix.IN_CREATE, "cut")
		for _, tail := range [][]byte{cut[:unix.SizeofInotifyEvent-4], cut[:unix.SizeofInotifyEvent+2]} {
			in.Feed(nil, slices.Concat(whole, tail))
			got := batches(t, in)
			if want := [][]string{{filepath.Join(dir, "whole"), ""}}; !slices.EqualFunc(got, want, slices.Equal) {
				t.Fatalf("a read ending in %d bytes of a record: %q, want %q", len(tail), got, want)
			}
		}
	})
}

func TestQueueOverflowIsHandedOver(t *testing.T) {
	in, dir := opened(t)
	in.Feed(nil, slices.Concat(record(in.Wd(dir), unix.IN_CREATE, "before"), record(-1, unix.IN_Q_OVERFLOW, "")))
	var got []kernel.Event
	must(t, in.Drain(func(evs []kernel.Event) { got = append(got, evs...) }))
	if len(got) != 2 || !got[1].Has(unix.IN_Q_OVERFLOW) || got[1].Path() != "" {
		t.Fatalf("got %+v, want an event, then an overflow about no path", got)
	}
}

// Once a directory vanished, its IN_IGNORED makes the instance forget the
// watch: events still carrying its descriptor are dropped, and the path
// can be watched again, on the new directory.
func TestIgnoredAfterADirectoryVanishes(t *testing.T) {
	in, dir := opened(t)
	wd := in.Wd(dir)
	must(t, os.Remove(dir))
	if got := batches(t, in); !slices.EqualFunc(got, [][]string{{dir}}, slices.Equal) {
		t.Fatalf("removing the watched directory: %q, want its own event only", got)
	}
	in.Feed(nil, record(wd, unix.IN_CREATE, "late"))
	if got := batches(t, in); len(got) != 0 {
		t.Fatalf("an event of the forgotten watch was handed over: %q", got)
	}
	must(t, os.Mkdir(dir, 0o755))
	must(t, in.Watch(dir, children))
	if in.Wd(dir) == wd {
		t.Fatalf("the new directory has the vanished one's watch %d", wd)
	}
	must(t, os.Mkdir(filepath.Join(dir, "again"), 0o755))
	if got := batches(t, in); !slices.EqualFunc(got, [][]string{{filepath.Join(dir, "again")}}, slices.Equal) {
		t.Fatalf("after watching again: %q", got)
	}
}

// Close returns while a Drain's handler runs and the reader waits for
// its turn: the reader used to wait for the turn inside the poller's
// read, which Close waited for holding the lock that Drain's next read
// takes, and a daemon stopped while it repaired never exited.
func TestCloseWhileADrainAndAReadWait(t *testing.T) {
	in, dir := opened(t)
	in.Feed(nil, record(in.Wd(dir), unix.IN_CREATE, "queued"))
	handling, release := make(chan struct{}), make(chan struct{})
	drained := make(chan error, 1)
	go func() {
		first := true
		drained <- in.Drain(func([]kernel.Event) {
			if first {
				first = false
				close(handling)
				<-release
			}
		})
	}()
	<-handling
	// An event makes the reader's descriptor ready while Drain holds
	// the turn.
	must(t, os.Mkdir(filepath.Join(dir, "ready"), 0o755))
	read := make(chan error, 1)
	go func() { read <- in.Read(func([]kernel.Event) {}) }()
	waitForStack(t, "os.(*rawConn).Read")
	closed := make(chan error, 1)
	go func() { closed <- in.Close() }()
	returns(t, "Close", closed)
	close(release)
	returns(t, "Drain", drained)
	returns(t, "Read", read)
}

// A Read's handler runs inside the poller's read, which Close waits for:
// a handler that watches a directory (the hub re-arms its paths from its
// handler) is told the instance is closed instead of waiting for Close's
// lock.
func TestCloseWhileAReadsHandlerWatches(t *testing.T) {
	in, dir := opened(t)
	handling, release := make(chan struct{}), make(chan struct{})
	watched := make(chan error, 1)
	read := make(chan error, 1)
	go func() {
		read <- in.Read(func([]kernel.Event) {
			select {
			case <-handling:
				return
			default:
			}
			close(handling)
			<-release
			watched <- in.Watch(dir, children)
		})
	}()
	must(t, os.Mkdir(filepath.Join(dir, "event"), 0o755))
	<-handling
	closed := make(chan error, 1)
	go func() { closed <- in.Close() }()
	waitForStack(t, "kernel.(*Instance).Close")
	close(release)
	select {
	case err := <-watched:
		if !errors.Is(err, kernel.ErrClosed) {
			t.Fatalf("Watch from a handler while closing: %v, want ErrClosed", err)
		}
	case <-time.After(patience):
		t.Fatal("Watch from a handler while closing did not return")
	}
	returns(t, "Close", closed)
	returns(t, "Read", read)
}

// returns waits for what's error.
func returns(t *testing.T, what string, ch <-chan error) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(patience):
		t.Fatalf("%s did not return", what)
	}
}

// waitForStack waits until a goroutine's stack holds fn.
func waitForStack(t *testing.T, fn string) {
	t.Helper()
	buf := make([]byte, 1<<20)
	for deadline := time.Now().Add(patience); time.Now().Before(deadline); runtime.Gosched() {
		if bytes.Contains(buf[:runtime.Stack(buf, true)], []byte(fn)) {
			return
		}
	}
	t.Fatalf("no goroutine reached %s", fn)
}

// Read allocates nothing of its own per batch: it runs for every batch
// of events a daemon reads, a busy neighbour's included.
func TestReadAllocatesNothing(t *testing.T) {
	in, dir := opened(t)
	f, err := os.Create(filepath.Join(dir, "f"))
	must(t, err)
	defer f.Close()
	must(t, in.Drain(func([]kernel.Event) {}))
	handled := make(chan struct{}, 1)
	go in.Read(func([]kernel.Event) {
		select {
		case handled <- struct{}{}:
		default: // the clean-up's events, once nobody waits
		}
	})
	allocs := testing.AllocsPerRun(100, func() {
		must(t, unix.Fchmod(int(f.Fd()), 0o600)) // an event, allocating nothing
		<-handled
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per batch read, want none", allocs)
	}
}

// An event queued while a Drain handles a read, which woke the reader
// only for it to find the turn taken, is read by that Drain: the reader
// waits for the next event. A Drain that stopped at a read which emptied
// the queue lost it, until another event came.
func TestAnEventQueuedWhileADrainHandlesItsReadIsRead(t *testing.T) {
	in, dir := opened(t)
	missed := make(chan struct{}, 1)
	in.OnMissedTurn(func() {
		select {
		case missed <- struct{}{}:
		default:
		}
	})
	seen := make(chan string, 16)
	handle := func(evs []kernel.Event) {
		for _, ev := range evs {
			seen <- ev.Path()
		}
	}
	late := filepath.Join(dir, "late")
	must(t, os.Mkdir(filepath.Join(dir, "first"), 0o755))
	started := false
	must(t, in.Drain(func(evs []kernel.Event) {
		handle(evs)
		if started {
			return
		}
		started = true
		go func() {
			for in.Read(handle) == nil {
			}
		}()
		// The reader tries once, then waits for the poller; once it
		// waits, only a new event wakes it.
		<-missed
		waitForStack(t, "internal/poll.runtime_pollWait")
		select {
		case <-missed:
		default:
		}
		must(t, os.Mkdir(late, 0o755))
		<-missed
	}))
	for {
		select {
		case p := <-seen:
			if p == late {
				return
			}
		case <-time.After(patience):
			t.Fatalf("%s, queued while a Drain handled a read, was never read", late)
		}
	}
}
