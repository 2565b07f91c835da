package source

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/engine/daemon/state"
)

// TestScratchIsMadeOnceAndRemoved: a read-only set's temporary directory
// is made on first use, shared, and gone after remove, which may run
// again.
func TestScratchIsMadeOnceAndRemoved(t *testing.T) {
	var s scratch
	if err := s.remove(); err != nil {
		t.Fatalf("removing before use: %v", err)
	}
	a, err := s.open()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := s.open()
	if a != b || !strings.HasPrefix(filepath.Base(a.Path()), "ccm-noop-") {
		t.Fatalf("opened %s then %s", a.Path(), b.Path())
	}
	if err := s.remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(a.Path()); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the scratch directory is still there: %v", err)
	}
	if err := s.remove(); err != nil {
		t.Fatalf("removing twice: %v", err)
	}
	c, err := s.open()
	if err != nil || c.Path() == a.Path() {
		t.Fatalf("opened again after removing: %v, %v", c, err)
	}
	if err := s.remove(); err != nil {
		t.Fatal(err)
	}
}

// TestReadOnlyCacheReadsTheStateDirectorys: fetched revisions go to the
// scratch directory; earlier ones are read from the state directory's
// cache when there is one, and a state directory that cannot be opened
// for another reason than its absence is an error.
func TestReadOnlyCacheReadsTheStateDirectorys(t *testing.T) {
	var s scratch
	t.Cleanup(func() { s.remove() })
	root := t.TempDir()
	cases := []struct {
		name     string
		cache    func() (*state.Dir, error)
		hasFrom  bool
		wantFail string
	}{
		{"no state directory", func() (*state.Dir, error) { return nil, fs.ErrNotExist }, false, ""},
		{"a state directory", func() (*state.Dir, error) { return state.Open(root) }, true, ""},
		{"an unreadable one", func() (*state.Dir, error) { return nil, errors.New("state: /var/lib/ccm is not private") }, false, "is not private"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := openCache(&Options{ReadOnly: true, Cache: c.cache, scratch: s.open}, "src")
			if c.wantFail != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantFail) {
					t.Fatalf("err = %v, want %q", err, c.wantFail)
				}
				return
			}
			if err != nil || (got.from != nil) != c.hasFrom || !strings.HasPrefix(got.d.Path(), s.dir.Path()) {
				t.Fatalf("cache %+v, %v", got, err)
			}
			if strings.HasPrefix(got.d.Path(), root) {
				t.Fatalf("a read-only cache writes to the state directory: %s", got.d.Path())
			}
		})
	}
}

func TestFlagsSayWhichDirectoryFailed(t *testing.T) {
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		f    Flags
		want string
	}{
		{Flags{CacheDir: notDir}, "--cache-dir: "},
		{Flags{StateDir: notDir}, "--state-dir: "},
	} {
		o, err := c.f.Options()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := o.Cache(); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.f, err, c.want)
		}
	}
	o, err := Flags{AllowHTTP: true, AllowUnsignedData: true, ReadOnly: true, HTTPInterval: 7}.Options()
	if err != nil || !o.AllowHTTP || !o.AllowUnsignedData || !o.ReadOnly || o.HTTPInterval != 7 || o.AllowUnsigned {
		t.Fatalf("options %+v, %v", o, err)
	}
}
