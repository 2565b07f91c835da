package archive

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// release is a served fixture archive and the paths of one resource using it.
type release struct {
	srv     *server
	body    []byte
	name    string // the archive's path
	parent  string // extract_parent
	creates string
}

func newRelease(t *testing.T, kind, ext string) release {
	t.Helper()
	body := fixture(t, kind, fixtureFiles)
	dir := t.TempDir()
	parent := filepath.Join(dir, "opt")
	return release{
		srv: serve(t, body, nil), body: body,
		name: filepath.Join(dir, "app"+ext), parent: parent,
		creates: filepath.Join(parent, "app/bin/app"),
	}
}

// props returns the release's properties plus extra YAML lines.
func (r release) props(extra ...string) string {
	ext := strings.TrimPrefix(filepath.Base(r.name), "app")
	lines := append([]string{
		fmt.Sprintf("url: %s/releases/app%s", r.srv.URL, ext),
		"extract_parent: " + r.parent,
		"creates: " + r.creates,
	}, extra...)
	return strings.Join(lines, "\n")
}

func assertExtracted(t *testing.T, parent string) {
	t.Helper()
	for n, want := range fixtureFiles {
		got, err := os.ReadFile(filepath.Join(parent, n))
		if err != nil || string(got) != want {
			t.Errorf("%s: got %q, %v; want %q", n, got, err, want)
		}
	}
}

func TestEveryFormatDownloadsAndExtracts(t *testing.T) {
	for _, tc := range []struct{ kind, ext string }{
		{"tar.gz", ".tar.gz"}, {"tar.gz", ".tgz"}, {"tar", ".tar"}, {"zip", ".zip"},
	} {
		t.Run(tc.ext, func(t *testing.T) {
			r := newRelease(t, tc.kind, tc.ext)
			a := buildArchive(t, r.name, r.props("checksum: "+sum(r.body)))
			out := resourcetest.Converge(t.Context(), t, a, false, false)
			if !out.Change.Changed || !out.After.Desired || out.After.Ensure != "present" {
				t.Fatalf("first converge: %+v", out)
			}
			assertExtracted(t, r.parent)
			if got, _ := os.ReadFile(r.name); string(got) != string(r.body) {
				t.Error("the archive on disk differs from the served one")
			}
			again := resourcetest.Converge(t.Context(), t, a, false, false)
			if again.Applied {
				t.Errorf("second converge applied again: %+v", again)
			}
			if n := r.srv.hits.Load(); n != 1 {
				t.Errorf("%d downloads, want 1", n)
			}
		})
	}
}

func TestDeletedCreatesReextractsOverExistingFiles(t *testing.T) {
	// A re-extraction overwrites files already there: unzip must not stop
	// at its "replace?" prompt.
	for _, tc := range []struct{ kind, ext string }{{"tar.gz", ".tgz"}, {"zip", ".zip"}} {
		t.Run(tc.ext, func(t *testing.T) {
			r := newRelease(t, tc.kind, tc.ext)
			a := buildArchive(t, r.name, r.props())
			resourcetest.Converge(t.Context(), t, a, false, false)
			readme := filepath.Join(r.parent, "app/README")
			if err := os.WriteFile(readme, []byte("edited\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(r.creates); err != nil {
				t.Fatal(err)
			}
			out := resourcetest.Converge(t.Context(), t, a, false, false)
			if !out.Change.Changed {
				t.Fatalf("a deleted creates marker was not re-extracted: %+v", out)
			}
			assertExtracted(t, r.parent)
			if n := r.srv.hits.Load(); n != 1 {
				t.Errorf("%d downloads, want 1: the archive on disk was still good", n)
			}
		})
	}
}

func TestBadChecksumLeavesNothingBehind(t *testing.T) {
	r := newRelease(t, "tar.gz", ".tar.gz")
	a := buildArchive(t, r.name, r.props("checksum: "+sum([]byte("another release"))))
	_, err := resources.Converge(t.Context(), a, false, false)
	if !errors.Is(err, ErrChecksumMismatch) {
		t.Fatalf("got %v, want ErrChecksumMismatch", err)
	}
	if !strings.Contains(err.Error(), sum(r.body)) {
		t.Errorf("the error does not give the actual checksum: %v", err)
	}
	entries, _ := os.ReadDir(filepath.Dir(r.name))
	for _, e := range entries {
		if e.Name() != "opt" {
			t.Errorf("left behind: %s", e.Name())
		}
	}
	if _, err := os.Stat(r.parent); err == nil {
		t.Error("a download that failed its checksum was extracted")
	}
}

func TestCorruptedArchiveIsDownloadedAgain(t *testing.T) {
	r := newRelease(t, "tar", ".tar")
	a := buildArchive(t, r.name, r.props("checksum: "+sum(r.body)))
	resourcetest.Converge(t.Context(), t, a, false, false)
	if err := os.WriteFile(r.name, []byte("corrupt"), 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := a.Check(t.Context())
	if err != nil || st.Desired || !strings.Contains(st.Reason(), "checksum sha256:") {
		t.Fatalf("check after corruption: %+v, %v", st, err)
	}
	resourcetest.Converge(t.Context(), t, a, false, false)
	if got, _ := os.ReadFile(r.name); string(got) != string(r.body) {
		t.Error("the corrupted archive was not replaced")
	}
	if n := r.srv.hits.Load(); n != 2 {
		t.Errorf("%d downloads, want 2", n)
	}
}

func TestCleanupRemovesTheArchiveAndCreatesKeepsItAway(t *testing.T) {
	r := newRelease(t, "zip", ".zip")
	a := buildArchive(t, r.name, r.props("cleanup: true"))
	out := resourcetest.Converge(t.Context(), t, a, false, false)
	if !out.Change.Changed || out.After.Ensure != "absent" {
		t.Fatalf("first converge: %+v", out)
	}
	if _, err := os.Stat(r.name); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the archive was not cleaned up: %v", err)
	}
	assertExtracted(t, r.parent)
	if again := resourcetest.Converge(t.Context(), t, a, false, false); again.Applied {
		t.Errorf("converged again although creates exists: %+v", again)
	}
	if err := os.Remove(r.creates); err != nil {
		t.Fatal(err)
	}
	resourcetest.Converge(t.Context(), t, a, false, false)
	if n := r.srv.hits.Load(); n != 2 {
		t.Errorf("%d downloads, want 2 (the cleaned-up archive is fetched again)", n)
	}
	if _, err := os.Stat(r.creates); err != nil {
		t.Errorf("creates was not extracted again: %v", err)
	}
}

func TestAbsentRemovesOnlyTheArchive(t *testing.T) {
	r := newRelease(t, "tar.gz", ".tgz")
	resourcetest.Converge(t.Context(), t, buildArchive(t, r.name, r.props()), false, false)
	a := buildArchive(t, r.name, r.props("ensure: absent"))
	noop := resourcetest.Converge(t.Context(), t, a, false, true)
	if noop.Change.NoopMessage != "Would have removed" {
		t.Errorf("noop message %q", noop.Change.NoopMessage)
	}
	out := resourcetest.Converge(t.Context(), t, a, false, false)
	if !out.Change.Changed || out.After.Ensure != "absent" {
		t.Fatalf("converge absent: %+v", out)
	}
	assertExtracted(t, r.parent)
	if again := resourcetest.Converge(t.Context(), t, a, false, false); again.Applied {
		t.Errorf("an absent archive converged again: %+v", again)
	}
}

func TestNoopSaysWhatItWouldDoAndDoesNothing(t *testing.T) {
	for _, tc := range []struct {
		desc, extra string
		setup       func(t *testing.T, r release)
		want        string
	}{
		{desc: "fresh with cleanup", extra: "cleanup: true", want: "Would have downloaded. Would have extracted. Would have cleaned up"},
		{desc: "fresh", want: "Would have downloaded. Would have extracted"},
		{desc: "marker deleted", setup: converged(true), want: "Would have extracted"},
		{desc: "extracted, archive left with cleanup", extra: "cleanup: true", setup: converged(false), want: "Would have cleaned up"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := newRelease(t, "tar.gz", ".tar.gz")
			if tc.setup != nil {
				tc.setup(t, r)
			}
			hits := r.srv.hits.Load()
			before := tree(t, filepath.Dir(r.name))
			a := buildArchive(t, r.name, r.props(tc.extra))
			out := resourcetest.Converge(t.Context(), t, a, false, true)
			if !out.Change.Changed || out.Change.NoopMessage != tc.want {
				t.Errorf("got %+v, want message %q", out.Change, tc.want)
			}
			if after := tree(t, filepath.Dir(r.name)); after != before {
				t.Errorf("noop changed the host:\nbefore %s\nafter  %s", before, after)
			}
			if r.srv.hits.Load() != hits {
				t.Error("noop downloaded")
			}
		})
	}
}

// converged returns a setup that converges the release without cleanup,
// then deletes the creates marker when dropMarker is set.
func converged(dropMarker bool) func(t *testing.T, r release) {
	return func(t *testing.T, r release) {
		resourcetest.Converge(t.Context(), t, buildArchive(t, r.name, r.props()), false, false)
		if dropMarker {
			if err := os.Remove(r.creates); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// tree lists every path under dir with its size, to see that nothing changed.
func tree(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s:%d ", p, fi.Size())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestWrongOwnerIsDownloadedAgain(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("changing a file's owner needs root")
	}
	r := newRelease(t, "tar", ".tar")
	a := buildArchive(t, r.name, r.props("owner: root", "group: root"))
	resourcetest.Converge(t.Context(), t, a, false, false)
	if err := os.Chown(r.name, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	st, err := a.Check(t.Context())
	if err != nil || st.Desired || !strings.Contains(st.Reason(), "owner nobody → ") {
		t.Fatalf("check after chown: %+v, %v", st, err)
	}
	resourcetest.Converge(t.Context(), t, a, false, false)
	fi, err := os.Stat(r.name)
	if err != nil {
		t.Fatal(err)
	}
	if uid := fi.Sys().(*syscall.Stat_t).Uid; uid != 0 {
		t.Errorf("owner uid %d after repair, want 0", uid)
	}
}
