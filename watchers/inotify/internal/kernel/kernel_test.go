package kernel_test

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/reactive-ccm/ccm/watchers/inotify/internal/kernel"
)

const (
	self     = unix.IN_MOVE_SELF | unix.IN_DELETE_SELF | unix.IN_ONLYDIR
	entries  = self | unix.IN_CREATE | unix.IN_MOVED_TO | unix.IN_MOVED_FROM | unix.IN_DELETE
	children = entries | unix.IN_MODIFY | unix.IN_ATTRIB
)

// reader reads an instance's events in the background, as the hub does.
type reader struct {
	in *kernel.Instance
	ch chan kernel.Event
	// done receives Read's final error.
	done chan error
}

func open(t *testing.T) *reader {
	t.Helper()
	in, err := kernel.Open()
	if err != nil {
		t.Fatal(err)
	}
	r := &reader{in: in, ch: make(chan kernel.Event, 1<<16), done: make(chan error, 1)}
	go r.loop()
	t.Cleanup(func() {
		if err := in.Close(); err != nil {
			t.Error(err)
		}
	})
	return r
}

func (r *reader) loop() {
	for {
		err := r.in.Read(func(evs []kernel.Event) {
			for _, ev := range evs {
				// Names point into the instance's buffer until the
				// handler returns.
				ev.Name = bytes.Clone(ev.Name)
				r.ch <- ev
			}
		})
		if err != nil {
			r.done <- err
			return
		}
	}
}

// patience bounds every wait for an event. It is far longer than any
// event takes, even on a loaded machine: only an event that never comes
// fails a test.
const patience = time.Minute

// next returns the next event.
func (r *reader) next(t *testing.T) kernel.Event {
	t.Helper()
	select {
	case ev := <-r.ch:
		return ev
	case <-time.After(patience):
		t.Fatal("no event")
		return kernel.Event{}
	}
}

// until returns the events read up to and including the first one about
// path with any of bits set.
func (r *reader) until(t *testing.T, path string, bits uint32) []kernel.Event {
	t.Helper()
	var got []kernel.Event
	timeout := time.After(patience)
	for {
		select {
		case ev := <-r.ch:
			got = append(got, ev)
			if ev.Path() == path && ev.Has(bits) {
				return got
			}
		case <-timeout:
			t.Fatalf("no event %#x about %s; got %v", bits, path, got)
		}
	}
}

// only fails unless every event is about path.
func only(t *testing.T, evs []kernel.Event, path string) {
	t.Helper()
	for _, ev := range evs {
		if ev.Path() != path {
			t.Fatalf("unexpected event %+v (want events about %s only)", ev, path)
		}
	}
}

// sentinel changes the mode of a file in its own watched directory: the
// one event it causes comes after every event queued before it.
func sentinel(t *testing.T, r *reader) (touch func()) {
	t.Helper()
	dir := t.TempDir()
	watch(t, r, dir, children)
	path := filepath.Join(dir, "sentinel")
	write(t, path)
	r.until(t, path, unix.IN_MODIFY)
	return func() {
		t.Helper()
		must(t, os.Chmod(path, 0o600))
		only(t, r.until(t, path, unix.IN_ATTRIB), path)
		must(t, os.Chmod(path, 0o644))
		only(t, r.until(t, path, unix.IN_ATTRIB), path)
	}
}

func watch(t *testing.T, r *reader, dir string, mask uint32) {
	t.Helper()
	must(t, r.in.Watch(dir, mask))
}

func write(t *testing.T, path string) {
	t.Helper()
	must(t, os.WriteFile(path, []byte("x"), 0o644))
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestChildEventsAreNamedByPath(t *testing.T) {
	dir := t.TempDir()
	r := open(t)
	watch(t, r, dir, children)
	file := filepath.Join(dir, "motd")
	steps := []struct {
		name string
		do   func()
		path string
		bits uint32
	}{
		{"create", func() { write(t, file) }, file, unix.IN_CREATE},
		{"write", func() { write(t, file) }, file, unix.IN_MODIFY},
		{"chmod", func() { must(t, os.Chmod(file, 0o600)) }, file, unix.IN_ATTRIB},
		{"rename away", func() { must(t, os.Rename(file, file+".old")) }, file, unix.IN_MOVED_FROM},
		{"rename in", func() { must(t, os.Rename(file+".old", file)) }, file, unix.IN_MOVED_TO},
		{"delete", func() { must(t, os.Remove(file)) }, file, unix.IN_DELETE},
		{"mkdir", func() { must(t, os.Mkdir(file, 0o755)) }, file, unix.IN_CREATE},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			s.do()
			r.until(t, s.path, s.bits)
		})
	}
}

func TestSelfEventsNameTheDirectory(t *testing.T) {
	tests := []struct {
		name string
		do   func(dir string) error
		bits uint32
	}{
		{"rename", func(dir string) error { return os.Rename(dir, dir+".moved") }, unix.IN_MOVE_SELF},
		{"delete", os.Remove, unix.IN_DELETE_SELF},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "watched")
			must(t, os.Mkdir(dir, 0o755))
			r := open(t)
			watch(t, r, dir, self)
			must(t, tt.do(dir))
			r.until(t, dir, tt.bits)
			must(t, r.in.Unwatch(dir))
		})
	}
}

// watched watches a new directory for every child event.
func watched(t *testing.T) (r *reader, touch func(), dir string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "watched")
	must(t, os.Mkdir(dir, 0o755))
	r = open(t)
	touch = sentinel(t, r)
	watch(t, r, dir, children)
	return r, touch, dir
}

func TestNarrowedWatchStopsChildEvents(t *testing.T) {
	r, touch, dir := watched(t)
	write(t, filepath.Join(dir, "before"))
	r.until(t, filepath.Join(dir, "before"), unix.IN_MODIFY)

	watch(t, r, dir, self)
	before := r.in.Events()
	write(t, filepath.Join(dir, "after"))
	must(t, os.Chmod(filepath.Join(dir, "before"), 0o600))
	touch()
	if got := r.in.Events() - before; got != 2 {
		t.Fatalf("%d events read after narrowing, want only the sentinel's 2", got)
	}
	must(t, os.Rename(dir, dir+".moved"))
	r.until(t, dir, unix.IN_MOVE_SELF)
}

func TestUnwatchStopsEvents(t *testing.T) {
	r, touch, dir := watched(t)
	must(t, r.in.Unwatch(dir))
	must(t, r.in.Unwatch(dir))
	write(t, filepath.Join(dir, "file"))
	touch()
}

// aliased watches a directory for every child event under its own path,
// and for linkMask under a symlink to it.
func aliased(t *testing.T, linkMask uint32) (r *reader, touch func(), target, link string) {
	t.Helper()
	target = t.TempDir()
	link = filepath.Join(t.TempDir(), "link")
	must(t, os.Symlink(target, link))
	r = open(t)
	touch = sentinel(t, r)
	watch(t, r, link, linkMask)
	watch(t, r, target, children)
	return r, touch, target, link
}

func TestPathsNamingOneDirectoryShareItsWatch(t *testing.T) {
	r, touch, target, link := aliased(t, self)

	// One kernel event, reported under both paths.
	must(t, os.Mkdir(filepath.Join(target, "a"), 0o755))
	seen := map[string]int{}
	for range 2 {
		seen[r.next(t).Path()]++
	}
	want := map[string]int{filepath.Join(link, "a"): 1, filepath.Join(target, "a"): 1}
	if !maps.Equal(seen, want) {
		t.Fatalf("events per path = %v, want %v", seen, want)
	}

	// The link's path asks only for the directory's own events: without
	// the target's path, child events stop.
	must(t, r.in.Unwatch(target))
	write(t, filepath.Join(target, "b"))
	touch()
	must(t, os.Rename(target, target+".moved"))
	r.until(t, link, unix.IN_MOVE_SELF)
}

func TestReplacedDirectoryIsWatchedAnew(t *testing.T) {
	r, touch, dir := watched(t)
	must(t, os.Rename(dir, dir+".old"))
	r.until(t, dir, unix.IN_MOVE_SELF)
	must(t, os.Mkdir(dir, 0o755))
	watch(t, r, dir, children)

	write(t, filepath.Join(dir+".old", "stale"))
	touch()
	write(t, filepath.Join(dir, "fresh"))
	r.until(t, filepath.Join(dir, "fresh"), unix.IN_CREATE)
}

func TestDeletedDirectoryIsForgotten(t *testing.T) {
	r, touch, dir := watched(t)
	must(t, os.Remove(dir))
	r.until(t, dir, unix.IN_DELETE_SELF)
	// IN_IGNORED follows the deletion; it is read before the sentinel.
	touch()
	must(t, os.Mkdir(dir, 0o755))
	watch(t, r, dir, children)
	write(t, filepath.Join(dir, "again"))
	r.until(t, filepath.Join(dir, "again"), unix.IN_CREATE)
}

func TestWatchErrorsNameTheDirectory(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	must(t, os.WriteFile(file, nil, 0o644))
	tests := []struct {
		name string
		path string
		want error
	}{
		{"missing", filepath.Join(t.TempDir(), "missing"), fs.ErrNotExist},
		{"not a directory", file, syscall.ENOTDIR},
	}
	r := open(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := r.in.Watch(tt.path, children)
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if want := "watching " + tt.path + ": "; len(err.Error()) < len(want) || err.Error()[:len(want)] != want {
				t.Fatalf("err = %q, want it to start with %q", err, want)
			}
		})
	}
}

func TestCloseUnblocksReadAndRefusesWatches(t *testing.T) {
	r := open(t)
	must(t, r.in.Close())
	select {
	case err := <-r.done:
		if !errors.Is(err, kernel.ErrClosed) {
			t.Fatalf("Read after Close: %v", err)
		}
	case <-time.After(patience):
		t.Fatal("Read still blocked after Close")
	}
	if err := r.in.Watch(t.TempDir(), children); !errors.Is(err, kernel.ErrClosed) {
		t.Fatalf("Watch after Close: %v", err)
	}
}

func TestOverflowIsReported(t *testing.T) {
	dir := t.TempDir()
	in, err := kernel.Open()
	must(t, err)
	defer in.Close()
	must(t, in.Watch(dir, children))
	limit := 16384
	if b, err := os.ReadFile("/proc/sys/fs/inotify/max_queued_events"); err == nil {
		_, _ = fmt.Sscan(string(b), &limit)
	}
	f, err := os.Create(filepath.Join(dir, "noisy"))
	must(t, err)
	defer f.Close()
	// Nothing reads while the queue fills; the kernel merges identical
	// consecutive events, so alternate two kinds.
	for i := 0; i <= limit; i++ {
		_, err := f.Write([]byte("x"))
		must(t, err)
		must(t, f.Chmod(0o600+os.FileMode(i%2)))
	}
	overflowed := false
	must(t, in.Drain(func(evs []kernel.Event) {
		if last := evs[len(evs)-1]; last.Has(unix.IN_Q_OVERFLOW) {
			if last.Path() != "" {
				t.Errorf("overflow event names %q", last.Path())
			}
			overflowed = true
		}
	}))
	if !overflowed {
		t.Fatal("a full queue reported no overflow")
	}
}

func TestNarrowingThroughARepointedPathLeavesOtherWatchesAlone(t *testing.T) {
	tests := []struct {
		name string
		// other is watched under its own path when watched is true.
		watched bool
	}{
		{"unwatched directory", false},
		{"directory watched under another path", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, touch, target, link := aliased(t, entries)
			other := t.TempDir()
			if tt.watched {
				watch(t, r, other, children)
			}
			// The link now names other; the instance still thinks it
			// names target, and narrows target through it.
			must(t, os.Remove(link))
			must(t, os.Symlink(other, link))
			if err := r.in.Unwatch(target); !errors.Is(err, kernel.ErrWider) {
				t.Fatalf("Unwatch = %v, want ErrWider", err)
			}

			// mkdir sends one event; a write sends two.
			must(t, os.Mkdir(filepath.Join(target, "a"), 0o755))
			r.until(t, filepath.Join(link, "a"), unix.IN_CREATE)
			before := r.in.Events()
			must(t, os.Mkdir(filepath.Join(other, "b"), 0o755))
			must(t, os.Chmod(filepath.Join(other, "b"), 0o700))
			want := uint64(2) // the sentinel's
			if tt.watched {
				r.until(t, filepath.Join(other, "b"), unix.IN_ATTRIB)
				want += 2
			}
			touch()
			if got := r.in.Events() - before; got != want {
				t.Fatalf("%d events read, want %d", got, want)
			}
		})
	}
}
