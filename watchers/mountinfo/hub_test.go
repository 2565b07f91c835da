package mountinfo

import (
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/sys/unix"
)

// tableHub is a hub reading its table from a file the test writes, as
// if the kernel had changed the mount table; write replaces the table.
func tableHub(t *testing.T, table string) (h *Hub, write func(string)) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "mountinfo")
	write = func(s string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(table)
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	h = New(t.Context(), slog.New(slog.DiscardHandler), nil)
	h.fd, h.table = fd, pointsOf(table)
	return h, write
}

// TestChangedNotifiesOnlyThePointsThatChanged: a mount over a watched
// point, an unmount and a remount each notify that point's watchers, and
// no one else's; an unchanged table notifies no one.
func TestChangedNotifiesOnlyThePointsThatChanged(t *testing.T) {
	const a, b = "1 0 0:1 / /a rw - tmpfs t rw\n", "2 0 0:2 / /b rw - tmpfs t rw\n"
	h, write := tableHub(t, a+b)
	var got []string
	for _, p := range []string{"/a", "/b", "/c"} {
		defer h.Watch(p, func() { got = append(got, p) })()
	}
	for _, c := range []struct {
		name, table string
		want        []string
	}{
		{"nothing changed", a + b, nil},
		{"a mount over /a", a + b + "3 1 0:3 / /a rw - tmpfs u rw\n", []string{"/a"}},
		{"the mount under it remounted", "1 0 0:1 / /a ro - tmpfs t rw\n" + b + "3 1 0:3 / /a rw - tmpfs u rw\n", []string{"/a"}},
		{"the mount over /a gone", a + b, []string{"/a"}},
		{"/b remounted read-only", a + "2 0 0:2 / /b ro - tmpfs t rw\n", []string{"/b"}},
		{"/c mounted, /a unmounted", "2 0 0:2 / /b ro - tmpfs t rw\n4 0 0:4 / /c rw - tmpfs c rw\n", []string{"/a", "/c"}},
	} {
		got = nil
		write(c.table)
		h.changed()
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Fatalf("%s: notified %v, want %v", c.name, got, c.want)
		}
	}
}

// TestAnUnreadableTableNotifiesEveryWatcher: a lost read costs every
// watched point a check, and the next read compares with the last table
// read, not with nothing.
func TestAnUnreadableTableNotifiesEveryWatcher(t *testing.T) {
	const table = "1 0 0:1 / /a rw - tmpfs t rw\n"
	h, _ := tableHub(t, table)
	fd := h.fd
	n := map[string]int{}
	for _, p := range []string{"/a", "/b"} {
		defer h.Watch(p, func() { n[p]++ })()
	}
	h.fd = -1
	h.changed()
	if n["/a"] != 1 || n["/b"] != 1 {
		t.Fatalf("after a failed read: %v, want each point notified once", n)
	}
	h.fd = fd
	h.changed()
	if n["/a"] != 1 || n["/b"] != 1 {
		t.Fatalf("the table read again as it was: %v, want no one notified again", n)
	}
}

// TestCancelEndsOneWatch: a cancelled watch is not notified; another of
// the same point still is, and the point is forgotten with its last.
func TestCancelEndsOneWatch(t *testing.T) {
	h, write := tableHub(t, "")
	var first, second int
	cancel1 := h.Watch("/a", func() { first++ })
	cancel2 := h.Watch("/a", func() { second++ })
	cancel1()
	write("1 0 0:1 / /a rw - tmpfs t rw\n")
	h.changed()
	if first != 0 || second != 1 {
		t.Fatalf("notified %d and %d times, want the cancelled watch not at all and the other once", first, second)
	}
	cancel2()
	if len(h.watchers) != 0 {
		t.Fatalf("watchers %v left after every watch was cancelled", h.watchers)
	}
}

// TestAHubThatCannotReadFallsBack: when the table cannot be watched (no
// /proc, or the hub stopped) a watch is the fallback's.
func TestAHubThatCannotReadFallsBack(t *testing.T) {
	var fell []string
	h := New(t.Context(), slog.New(slog.DiscardHandler), func(path string, notify func()) func() {
		fell = append(fell, path)
		return func() {}
	})
	h.failed = errStopped
	h.Watch("/srv", func() {})()
	if !slices.Equal(fell, []string{"/srv"}) || len(h.watchers) != 0 {
		t.Fatalf("fallback watched %v, the hub holds %v; want /srv the fallback's", fell, h.watchers)
	}
}

// TestStartReadsTheTableWhenTheFirstWatchArrives: the real table is
// opened and read by the first Watch, and only then.
func TestStartReadsTheTableWhenTheFirstWatchArrives(t *testing.T) {
	h := New(t.Context(), slog.New(slog.DiscardHandler), func(string, func()) func() {
		t.Fatal("fell back with /proc readable")
		return nil
	})
	if h.fd != -1 || h.table != nil {
		t.Fatalf("New opened the table: fd %d", h.fd)
	}
	defer h.Watch("/", func() {})()
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.fd < 0 || h.table["/"] == "" {
		t.Fatalf("after the first Watch: fd %d, the root's entries %q", h.fd, h.table["/"])
	}
}
