package main_test

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestNoopChangesNothingUnderTheStateDirectory: a noop run with remote
// sources and --report nats neither creates the state directory nor
// writes in one that exists (no cache of what it fetched, no mode made
// private, no subdirectory), still starts from the cache when NATS is
// away, and leaves no temporary copy of what it fetched behind.
func TestNoopChangesNothingUnderTheStateDirectory(t *testing.T) {
	f := newFleet(t)
	tmp := t.TempDir()
	f.env = append(f.env, "TMPDIR="+tmp)
	dir := t.TempDir()
	f.putKV("data", "common", "data:\n  greeting: hello\n")
	f.putKV("cfg", "port", "8080")
	const loc = "obj://ccm/app.tgz"
	f.publish(dir, loc, appConf, "")
	noop := []string{"run", "--allow-unsigned", "--noop", "--report", "nats", "--hostname", "h1", "--hiera", "kv://data/common"}

	states := filepath.Join(t.TempDir(), "state")
	r := f.ccm(append(noop, "--state-dir", states, loc)...)
	if r.code != 0 || !strings.Contains(r.stdout, "Would have created the file") {
		t.Fatalf("noop without a state directory: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(states); err == nil {
		t.Fatal("noop created the state directory")
	}
	assertEmpty(t, tmp)

	f.must("run", "--allow-unsigned", "--state-dir", states, "--hiera", "kv://data/common", loc)
	if err := os.Chmod(states, 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "app.conf")); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, states)
	r = f.ccm(append(noop, "--state-dir", states, loc)...)
	if r.code != 0 || !strings.Contains(r.stdout, "Would have created the file") {
		t.Fatalf("noop with a state directory: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	assertSame(t, before, snapshot(t, states))
	assertEmpty(t, tmp)

	// Without --report: a one-shot run waits for NATS to take its report.
	f.srv.Stop()
	r = f.ccm("run", "--noop", "--hiera", "kv://data/common", "--allow-unsigned", "--state-dir", states, loc)
	if r.code != 0 || !strings.Contains(r.stdout, "Would have created the file") || !strings.Contains(r.stderr, "converging from the cached copy") {
		t.Fatalf("noop from the cache, NATS away: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	assertSame(t, before, snapshot(t, states))
	assertEmpty(t, tmp)
}

// snapshot describes every entry under root: its mode, modification time
// and, for files, a digest of the content.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		st, err := os.Lstat(p)
		if err != nil {
			return err
		}
		desc := fmt.Sprintf("%v %d", st.Mode(), st.ModTime().UnixNano())
		if st.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			desc += fmt.Sprintf(" %x", sha256.Sum256(b))
		}
		out[p] = desc
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func assertSame(t *testing.T, before, after map[string]string) {
	t.Helper()
	for _, p := range slices.Sorted(maps.Keys(after)) {
		if before[p] != after[p] {
			t.Errorf("%s: %q before the noop run, %q after", p, before[p], after[p])
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			t.Errorf("%s: removed by the noop run", p)
		}
	}
}

func assertEmpty(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("left behind in $TMPDIR: %s", e.Name())
	}
}
