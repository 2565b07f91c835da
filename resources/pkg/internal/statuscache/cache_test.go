package statuscache

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"
)

// db is a package database in a temporary file, and a Query over it that
// records what it was asked.
type db struct {
	t    *testing.T
	path string

	mu        sync.Mutex
	installed map[string]string
	calls     [][]string
	fail      error
	gate      chan struct{} // when set, queries wait for it to close
	during    func()        // when set, runs inside the next query
}

func newDB(t *testing.T, installed map[string]string) *db {
	d := &db{t: t, path: filepath.Join(t.TempDir(), "status"), installed: installed}
	d.write()
	return d
}

// write replaces the database file, as dpkg does: a new file renamed over
// the old one.
func (d *db) write() {
	d.t.Helper()
	tmp := d.path + "-new"
	if err := os.WriteFile(tmp, []byte(fmt.Sprint(d.installed)), 0o644); err != nil {
		d.t.Fatal(err)
	}
	if err := os.Rename(tmp, d.path); err != nil {
		d.t.Fatal(err)
	}
}

// overwrite rewrites the database file in place, keeping its inode and
// size, as a writer that does not replace the file would.
func (d *db) overwrite(name, version string) {
	d.t.Helper()
	d.mu.Lock()
	d.installed[name] = version
	content := fmt.Sprint(d.installed)
	d.mu.Unlock()
	if err := os.WriteFile(d.path, []byte(content), 0o644); err != nil {
		d.t.Fatal(err)
	}
}

func (d *db) set(name, version string) {
	d.mu.Lock()
	d.installed[name] = version
	d.mu.Unlock()
	d.write()
}

func (d *db) query(ctx context.Context, names []string) (map[string]string, error) {
	d.mu.Lock()
	d.calls = append(d.calls, names)
	gate, fail, during := d.gate, d.fail, d.during
	d.during = nil
	d.mu.Unlock()
	if during != nil {
		during()
	}
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if fail != nil {
		return nil, fail
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	out := map[string]string{}
	for _, n := range names {
		if v, ok := d.installed[n]; ok {
			out[n] = v
		}
	}
	return out, nil
}

func (d *db) queries() [][]string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([][]string(nil), d.calls...)
}

// settled is a clock an hour ahead, so no file looks recently written.
func settled() time.Time { return time.Now().Add(time.Hour) }

func newCache(d *db, now func() time.Time) *Cache {
	return New(Options{Paths: []string{d.path}, Query: d.query, Now: now})
}

func mustStatus(t *testing.T, c *Cache, name string) string {
	t.Helper()
	v, err := c.Status(t.Context(), name)
	if err != nil {
		t.Fatalf("Status(%s): %v", name, err)
	}
	return v
}

func TestTrackedNamesAreCheckedWithOneQuery(t *testing.T) {
	d := newDB(t, map[string]string{"a": "1.0", "c": "3.0"})
	c := newCache(d, settled)
	for _, n := range []string{"a", "b", "c"} {
		c.Track(n)
	}
	want := map[string]string{"a": "1.0", "b": "", "c": "3.0"}
	for _, n := range []string{"a", "b", "c"} {
		if got := mustStatus(t, c, n); got != want[n] {
			t.Errorf("Status(%s) = %q, want %q", n, got, want[n])
		}
	}
	if got := d.queries(); !reflect.DeepEqual(got, [][]string{{"a", "b", "c"}}) {
		t.Errorf("queries = %v, want one query of a, b, c", got)
	}
}

func TestChangedDatabaseIsQueriedAgain(t *testing.T) {
	d := newDB(t, map[string]string{"a": "1.0"})
	c := newCache(d, settled)
	mustStatus(t, c, "a")
	mustStatus(t, c, "a")
	d.set("a", "2.0")
	if got := mustStatus(t, c, "a"); got != "2.0" {
		t.Errorf("after the database changed, Status(a) = %q, want 2.0", got)
	}
	if n := len(d.queries()); n != 2 {
		t.Errorf("%d queries, want 2 (one per database state)", n)
	}
}

// TestAskedTwice: whether a second Status of a name queries again depends
// on what the cache may trust of the files it fingerprints (the database,
// and a directory of journal entries beside it).
func TestAskedTwice(t *testing.T) {
	tests := []struct {
		name       string
		now        func() time.Time
		hashRecent bool
		beside     string // a second path to fingerprint, in an empty directory ("." is the directory)
		between    func(t *testing.T, dir string)
		want       int
	}{
		{"a file written within the racy window may change without its times changing", time.Now, false, "", nil, 2},
		{"a recent file's hashed content says it is unchanged", nil, true, "", nil, 1},
		{"a missing database is a fingerprint, not an error", settled, false, "missing", nil, 1},
		{"a new entry of a directory is a database change", settled, false, ".", func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, "0001"), []byte("journal"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDB(t, map[string]string{"a": "1.0"})
			dir := t.TempDir()
			paths := []string{d.path}
			if tt.beside != "" {
				paths = append(paths, filepath.Join(dir, tt.beside))
			}
			c := New(Options{Paths: paths, Query: d.query, Now: tt.now, HashRecent: tt.hashRecent})
			mustStatus(t, c, "a")
			if tt.between != nil {
				tt.between(t, dir)
			}
			mustStatus(t, c, "a")
			if n := len(d.queries()); n != tt.want {
				t.Errorf("%d queries, want %d", n, tt.want)
			}
		})
	}
}

// clock is the real time plus an offset the test moves.
type clock struct {
	mu     sync.Mutex
	offset time.Duration
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.offset)
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.offset += d
	c.mu.Unlock()
}

func TestContentTrustIsVerifiedOnceTimesAreOldEnough(t *testing.T) {
	tests := []struct {
		name        string
		change      func(d *db)
		want        string
		wantQueries int
	}{
		{"unchanged: the times are trusted from then on", func(*db) {}, "1.0", 1},
		{"rewritten in place: queried again", func(d *db) { d.overwrite("a", "2.0") }, "2.0", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDB(t, map[string]string{"a": "1.0"})
			clk := &clock{}
			c := New(Options{Paths: []string{d.path}, Query: d.query, HashRecent: true, Now: clk.now})
			mustStatus(t, c, "a")
			tt.change(d)
			clk.advance(time.Hour)
			for range 3 {
				if got := mustStatus(t, c, "a"); got != tt.want {
					t.Fatalf("Status(a) = %q, want %q", got, tt.want)
				}
			}
			if n := len(d.queries()); n != tt.wantQueries {
				t.Errorf("%d queries, want %d", n, tt.wantQueries)
			}
		})
	}
}

func TestSameSizeRewriteWithinATickIsSeen(t *testing.T) {
	for _, hash := range []bool{false, true} {
		t.Run(fmt.Sprintf("HashRecent=%v", hash), func(t *testing.T) {
			d := newDB(t, map[string]string{"a": "1.0"})
			c := New(Options{Paths: []string{d.path}, Query: d.query, HashRecent: hash})
			mustStatus(t, c, "a")
			d.overwrite("a", "2.0")
			if got := mustStatus(t, c, "a"); got != "2.0" {
				t.Errorf("after an in-place rewrite, Status(a) = %q, want 2.0", got)
			}
		})
	}
}

func TestChangeDuringAQueryIsNotRemembered(t *testing.T) {
	d := newDB(t, map[string]string{"a": "1.0"})
	c := newCache(d, settled)
	d.during = func() { d.set("a", "2.0") }
	mustStatus(t, c, "a")
	if got := mustStatus(t, c, "a"); got != "2.0" {
		t.Errorf("Status(a) = %q, want 2.0 from a second query", got)
	}
	if n := len(d.queries()); n != 2 {
		t.Errorf("%d queries, want 2", n)
	}
}

func TestNameAskedAfterAQueryIsQueriedAgain(t *testing.T) {
	d := newDB(t, map[string]string{"a": "1.0", "b": "2.0"})
	c := newCache(d, settled)
	mustStatus(t, c, "a")
	if got := mustStatus(t, c, "b"); got != "2.0" {
		t.Errorf("Status(b) = %q, want 2.0", got)
	}
	if got := d.queries(); !reflect.DeepEqual(got, [][]string{{"a"}, {"a", "b"}}) {
		t.Errorf("queries = %v, want [a] then [a b]", got)
	}
}

func TestConcurrentCallersShareOneQuery(t *testing.T) {
	d := newDB(t, map[string]string{})
	c := newCache(d, settled)
	var names []string
	for i := range 50 {
		names = append(names, fmt.Sprintf("p%02d", i))
		c.Track(names[i])
	}
	var wg sync.WaitGroup
	for _, n := range names {
		wg.Go(func() {
			if _, err := c.Status(t.Context(), n); err != nil {
				t.Errorf("Status(%s): %v", n, err)
			}
		})
	}
	wg.Wait()
	if n := len(d.queries()); n != 1 {
		t.Errorf("%d queries for 50 concurrent callers, want 1", n)
	}
}

func TestNamesNotAskedForAWhileAreForgotten(t *testing.T) {
	d := newDB(t, map[string]string{})
	clk := &clock{offset: time.Hour}
	c := New(Options{Paths: []string{d.path}, Query: d.query, Now: clk.now, ForgetAfter: 10 * time.Minute})
	c.Track("old")
	mustStatus(t, c, "new")
	clk.advance(5 * time.Minute)
	d.set("x", "1")
	mustStatus(t, c, "new")
	clk.advance(6 * time.Minute)
	d.set("x", "2")
	mustStatus(t, c, "new")
	got := d.queries()
	want := [][]string{{"new", "old"}, {"new", "old"}, {"new"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("queries = %v, want %v", got, want)
	}
}

func TestQueryErrorIsReturnedAndNotRemembered(t *testing.T) {
	d := newDB(t, map[string]string{"a": "1.0"})
	c := newCache(d, settled)
	boom := errors.New("dpkg-query exploded")
	d.fail = boom
	if _, err := c.Status(t.Context(), "a"); !errors.Is(err, boom) {
		t.Fatalf("Status error = %v, want %v", err, boom)
	}
	d.mu.Lock()
	d.fail = nil
	d.mu.Unlock()
	if got := mustStatus(t, c, "a"); got != "1.0" {
		t.Errorf("after the failure, Status(a) = %q, want 1.0", got)
	}
}

func TestWaiterGivesUpWhenItsContextEnds(t *testing.T) {
	d := newDB(t, map[string]string{"a": "1.0"})
	d.gate = make(chan struct{})
	querying := make(chan struct{})
	d.during = func() { close(querying) }
	c := newCache(d, settled)
	go func() { _, _ = c.Status(t.Context(), "a") }()
	// The second Status finds this query running and waits for it.
	<-querying
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := c.Status(ctx, "a"); !errors.Is(err, context.Canceled) {
		t.Errorf("Status with a cancelled context = %v, want context.Canceled", err)
	}
	close(d.gate)
}

func TestRemembered(t *testing.T) {
	byTimes := &flight{fp: fingerprint{stamp: "s"}, answers: map[string]string{"a": "1.0"}}
	byContent := &flight{fp: fingerprint{stamp: "s", hash: 7, hashed: true}, answers: map[string]string{"a": "1.0"}}
	tests := []struct {
		name       string
		last       *flight
		fp         fingerprint
		wantOK     bool
		wantVerify bool
	}{
		{"same stamp", byTimes, fingerprint{stamp: "s"}, true, false},
		// A caller whose fingerprint was taken while the file was recent
		// meets a query trusted by its times since.
		{"same stamp, caller hashed", byTimes, fingerprint{stamp: "s", hash: 9, hashed: true}, true, false},
		{"other stamp", byTimes, fingerprint{stamp: "t"}, false, false},
		{"caller racy", byTimes, fingerprint{stamp: "s", racy: true}, false, false},
		{"same content", byContent, fingerprint{stamp: "s", hash: 7, hashed: true}, true, false},
		{"other content", byContent, fingerprint{stamp: "s", hash: 8, hashed: true}, false, false},
		{"content to verify", byContent, fingerprint{stamp: "s"}, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &Cache{last: tt.last}
			v, ok, verify := c.remembered(tt.fp, "a")
			if ok != tt.wantOK || (verify != nil) != tt.wantVerify || (ok && v != "1.0") {
				t.Errorf("remembered = %q, %v, verify %v; want ok %v, verify %v", v, ok, verify != nil, tt.wantOK, tt.wantVerify)
			}
		})
	}
}
