package source

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine/daemon/state"
	"github.com/reactive-ccm/ccm/engine/fleet/bundle"
)

// testCache opens the cache "src" under a temporary state directory.
func testCache(t *testing.T) cache {
	t.Helper()
	root := t.TempDir()
	c, err := openCache(&Options{Cache: func() (*state.Dir, error) { return state.Open(root) }}, "src")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// tgz packs files (name to content) into a bundle.
func tgz(t *testing.T, files map[string]string) []byte {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var b bytes.Buffer
	if err := bundle.Pack(dir, &b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestOpenCache(t *testing.T) {
	if _, err := openCache(&Options{}, "src"); !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "no state directory to cache remote sources in") {
		t.Fatalf("without a state directory: %v", err)
	}
	root := t.TempDir()
	left := filepath.Join(root, "src", extractPrefix+"123", bundleEntry)
	if err := os.MkdirAll(left, 0o700); err != nil {
		t.Fatal(err)
	}
	o := &Options{Cache: func() (*state.Dir, error) { return state.Open(root) }}
	if _, err := openCache(o, "src"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Dir(left)); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("an extraction a crash interrupted is still there: %v", err)
	}
	if _, err := (cache{}).read(false); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a cache with nothing to read from: %v", err)
	}
}

// TestCachedRecordsAreChecked: a record without an ID, or whose manifest
// is not inside the bundle, is damaged, not trusted.
func TestCachedRecordsAreChecked(t *testing.T) {
	cases := []struct {
		name   string
		record any
		data   bool
		err    error
		msg    string
	}{
		{name: "none", err: fs.ErrNotExist},
		{name: "no id", record: record{Manifest: "manifest.yaml"}, msg: "is damaged"},
		{name: "manifest outside the bundle", record: record{ID: "1", Manifest: "../../etc/manifest.yaml"}, msg: "is damaged"},
		{name: "absolute manifest", record: record{ID: "1", Manifest: "/etc/manifest.yaml"}, msg: "is damaged"},
		{name: "no manifest in a bundle", record: record{ID: "1"}, msg: "is damaged"},
		{name: "data needs no manifest", record: record{ID: "1"}, data: true},
		{name: "not JSON", record: "[", msg: "json"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cc := testCache(t)
			switch r := c.record.(type) {
			case string:
				if err := cc.d.WriteFile(recordFile, []byte(r)); err != nil {
					t.Fatal(err)
				}
			case record:
				if err := cc.d.WriteJSON(recordFile, r); err != nil {
					t.Fatal(err)
				}
			}
			_, err := readRecord(cc.d, recordFile, c.data)
			switch {
			case c.err == nil && c.msg == "" && err != nil:
				t.Fatalf("err = %v", err)
			case c.err != nil && !errors.Is(err, c.err):
				t.Fatalf("err = %v, want %v", err, c.err)
			case c.msg != "" && (err == nil || !strings.Contains(err.Error(), c.msg)):
				t.Fatalf("err = %v, want %q", err, c.msg)
			}
			if c.msg == "is damaged" && !strings.Contains(err.Error(), filepath.Join(cc.d.Path(), recordFile)) {
				t.Fatalf("the error does not name the record: %v", err)
			}
		})
	}
}

// TestStoreBundleSwapsInPlace: each revision replaces the one before at
// the same path, with what its signature attested, and a bundle that
// does not extract leaves the one in force.
func TestStoreBundleSwapsInPlace(t *testing.T) {
	c := testCache(t)
	signed := time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)
	one, err := c.storeBundle("d1", tgz(t, map[string]string{"manifest.yaml": "one\n", "old.txt": "x"}), bundle.Attestation{Key: "k1", Signed: signed}, bundle.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	two, err := c.storeBundle("d2", tgz(t, map[string]string{"manifest.yaml": "two\n"}), bundle.Attestation{}, bundle.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if two.Manifest != one.Manifest || readString(t, two.Manifest) != "two\n" {
		t.Fatalf("the second revision is at %s, the first was at %s", two.Manifest, one.Manifest)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(one.Manifest), "old.txt")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the first revision's files are mixed into the second: %v", err)
	}
	got, err := c.read(false)
	if err != nil || got.ID != "d2" || got.Manifest != two.Manifest || got.VerifiedBy != "" {
		t.Fatalf("read back %+v, %v", got, err)
	}
	if _, err := c.storeBundle("d3", []byte("not a tarball"), bundle.Attestation{}, bundle.Limits{}); err == nil {
		t.Fatal("a bundle that is not a tarball was stored")
	}
	if got, err := c.read(false); err != nil || got.ID != "d2" || readString(t, got.Manifest) != "two\n" {
		t.Fatalf("after a failed store the cache holds %+v, %v", got, err)
	}
	if left, _ := filepath.Glob(filepath.Join(c.d.Path(), extractPrefix+"*")); len(left) != 0 {
		t.Fatalf("extractions left behind: %v", left)
	}
}

func TestStoreDataKeepsTheAttestation(t *testing.T) {
	c := testCache(t)
	signed := time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)
	if _, err := c.storeData("r1", []byte("a: 1\n"), bundle.Attestation{Key: "k", Signed: signed}); err != nil {
		t.Fatal(err)
	}
	got, err := c.read(true)
	if err != nil || got.ID != "r1" || string(got.Data) != "a: 1\n" || got.VerifiedBy != "k" || !got.Signed.Equal(signed) {
		t.Fatalf("read back %+v, %v", got, err)
	}
}

// TestKeepGood: the bundle in force is copied aside once, only while it
// is still the one in force, and a tree holding anything but files and
// directories is not copied.
func TestKeepGood(t *testing.T) {
	c := testCache(t)
	rev, err := c.storeBundle("d1", tgz(t, map[string]string{"manifest.yaml": "good\n", "files/a.txt": "a"}), bundle.Attestation{}, bundle.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.keepGood(rev); err != nil {
		t.Fatal(err)
	}
	good, err := c.readGood()
	if err != nil || good.ID != "d1" || readString(t, good.Manifest) != "good\n" || readString(t, filepath.Join(filepath.Dir(good.Manifest), "files/a.txt")) != "a" {
		t.Fatalf("good %+v, %v", good, err)
	}
	// Kept already: nothing is copied, so a tree that could not be copied
	// is no error.
	if err := os.Symlink("/etc/passwd", filepath.Join(c.d.Path(), bundleEntry, "link")); err != nil {
		t.Fatal(err)
	}
	if err := c.keepGood(rev); err != nil {
		t.Fatalf("keeping the good bundle again: %v", err)
	}
	if _, err := c.storeBundle("d2", tgz(t, map[string]string{"manifest.yaml": "next\n"}), bundle.Attestation{}, bundle.Limits{}); err != nil {
		t.Fatal(err)
	}
	if err := c.keepGood(Revision{ID: "d0"}); err == nil || err.Error() != "source: the bundle in force is not d0 any more" {
		t.Fatalf("keeping a bundle no longer in force: %v", err)
	}
	next, _ := c.read(false)
	if err := os.Symlink("/etc/passwd", filepath.Join(c.d.Path(), bundleEntry, "link")); err != nil {
		t.Fatal(err)
	}
	if err := c.keepGood(next); err == nil || !strings.Contains(err.Error(), "link is not a regular file") {
		t.Fatalf("copying a symbolic link: %v", err)
	}
	if good, err := c.readGood(); err != nil || good.ID != "d1" {
		t.Fatalf("a failed copy replaced the good bundle: %+v, %v", good, err)
	}
}

// TestNewestSignatureNeverGoesDown: the mark is the newest of the cache's
// own and the state directory's copy, and raising it with an older
// signature changes nothing.
func TestNewestSignatureNeverGoesDown(t *testing.T) {
	c := testCache(t)
	t0 := time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)
	if n, err := c.newest(); err != nil || !n.Signed.IsZero() {
		t.Fatalf("an empty cache: %+v, %v", n, err)
	}
	for _, a := range []bundle.Attestation{
		{Signed: t0, Digest: "a"}, {Signed: t0.Add(-time.Minute), Digest: "older"}, {Signed: t0, Digest: "same time"},
	} {
		if err := c.raise(a); err != nil {
			t.Fatal(err)
		}
	}
	if n, _ := c.newest(); !n.Signed.Equal(t0) || n.Digest != "a" {
		t.Fatalf("newest %+v, want the first at t0", n)
	}
	other := testCache(t)
	if err := other.raise(bundle.Attestation{Signed: t0.Add(time.Hour), Digest: "b"}); err != nil {
		t.Fatal(err)
	}
	both := cache{d: other.d, from: c.d}
	if n, _ := both.newest(); n.Digest != "b" {
		t.Fatalf("newest of both %+v, want the newer one", n)
	}
	if err := c.d.WriteFile(newestFile, []byte("{")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.newest(); err == nil {
		t.Fatal("a damaged mark was read as none")
	}
}
