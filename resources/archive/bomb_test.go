package archive

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"errors"
	"hash/crc32"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/resources"
	"golang.org/x/sys/unix"
)

// testLimits are the bounds the bomb tests lower the real ones to, so a
// bomb a few megabytes large exceeds them.
var testLimits = limits{total: 4 << 20, entry: 1 << 20, entries: 100}

func fixed(l limits) func(string) (limits, error) {
	return func(string) (limits, error) { return l, nil }
}

// zeros is an archive of kind holding one member of n zero bytes,
// deflated as the kind does: a few kilobytes that expand to n.
func zeros(t *testing.T, kind string, n int64) []byte {
	t.Helper()
	var buf bytes.Buffer
	var err error
	switch kind {
	case "tar.gz":
		gz := gzip.NewWriter(&buf)
		tw := tar.NewWriter(gz)
		if err = tw.WriteHeader(&tar.Header{Name: "zero", Mode: 0o644, Size: n}); err == nil {
			_, err = io.Copy(tw, io.LimitReader(zeroReader{}, n))
		}
		err = errors.Join(err, tw.Close(), gz.Close())
	case "zip":
		zw := zip.NewWriter(&buf)
		var w io.Writer
		if w, err = zw.Create("zero"); err == nil {
			_, err = io.Copy(w, io.LimitReader(zeroReader{}, n))
		}
		err = errors.Join(err, zw.Close())
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// lyingZip is a zip whose one member says it holds 10 bytes and holds n
// zero bytes, its CRC that of the n bytes: unzip writes all of them.
func lyingZip(t *testing.T, n int64) []byte {
	t.Helper()
	var data bytes.Buffer
	fw, _ := flate.NewWriter(&data, flate.BestCompression)
	crc := crc32.NewIEEE()
	if _, err := io.Copy(io.MultiWriter(fw, crc), io.LimitReader(zeroReader{}, n)); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateRaw(&zip.FileHeader{Name: "zero", Method: zip.Deflate, CRC32: crc.Sum32(),
		CompressedSize64: uint64(data.Len()), UncompressedSize64: 10})
	if err == nil {
		_, err = w.Write(data.Bytes())
	}
	if err = errors.Join(err, zw.Close()); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// sparseTar is a tar.gz made by GNU tar of a sparse file of n bytes: a
// hole, next to nothing in the archive.
func sparseTar(t *testing.T, n int64) []byte {
	t.Helper()
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "hole"))
	if err == nil {
		err = errors.Join(f.Truncate(n), f.Close())
	}
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "sparse.tar.gz")
	if b, err := exec.Command("tar", "-C", dir, "--sparse", "-czf", out, "hole").CombinedOutput(); err != nil {
		t.Fatalf("tar: %v: %s", err, b)
	}
	body, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return body
}

// many is a tar.gz of n empty members.
func many(t *testing.T, n int) []byte {
	t.Helper()
	files := map[string]string{}
	for i := range n {
		files["f"+strconv.Itoa(i)] = ""
	}
	return fixture(t, "tar.gz", files)
}

// wide is a tar.gz of n members of size bytes each: none too large alone.
func wide(t *testing.T, n int, size int) []byte {
	t.Helper()
	files := map[string]string{}
	for i := range n {
		files["f"+strconv.Itoa(i)] = strings.Repeat("x", size)
	}
	return fixture(t, "tar.gz", files)
}

// Archives that expand past a bound, served from loopback: each fails
// with an error naming the archive and the bound, and extract_parent is
// left as it was, no stage left in it.
func TestBombsAreRefusedAndExtractNothing(t *testing.T) {
	for _, tc := range []struct {
		name, kind string
		body       func(t *testing.T) []byte
		// limits are the bounds; testLimits when zero.
		limits limits
		want   string
	}{
		{name: "tar.gz of a zero file", kind: "tar.gz", body: func(t *testing.T) []byte { return zeros(t, "tar.gz", 8<<20) },
			want: "member zero holds more than 1048576 bytes (1.0 MiB)"},
		{name: "sparse member", kind: "tar.gz", body: func(t *testing.T) []byte { return sparseTar(t, 1<<30) },
			want: "member hole holds more than 1048576 bytes"},
		{name: "members together", kind: "tar.gz", body: func(t *testing.T) []byte { return wide(t, 8, 900<<10) },
			want: "the archive's members together holds more than"},
		{name: "many members", kind: "tar.gz", body: func(t *testing.T) []byte { return many(t, 101) },
			want: "the archive holds more than 100 members"},
		{name: "zip of a zero file", kind: "zip", body: func(t *testing.T) []byte { return zeros(t, "zip", 8<<20) },
			want: "member zero holds more than 1048576 bytes"},
		{name: "zip with a lying header", kind: "zip", body: func(t *testing.T) []byte { return lyingZip(t, 8<<20) },
			limits: limits{total: 1 << 40, entry: maxEntrySize, entries: maxEntries},
			want:   "member zero of the zip archive holds more than its header says (10 bytes)"},
		// Another writer filled the filesystem meanwhile: as if it had, the
		// floor is set above what any filesystem has.
		{name: "filesystem filling meanwhile", kind: "tar.gz", body: func(t *testing.T) []byte { return zeros(t, "tar.gz", 2*recheckEvery) },
			limits: limits{total: 1 << 40, entry: maxEntrySize, entries: maxEntries, dir: "/", floor: 1 << 62},
			want:   "its filesystem has less than 4611686018427387904 bytes available now"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := serve(t, tc.body(t), nil)
			dir := t.TempDir()
			name, parent := filepath.Join(dir, "app."+tc.kind), filepath.Join(dir, "opt")
			if err := os.MkdirAll(filepath.Join(parent, "app"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(parent, "app", "zero"), []byte("kept"), 0o644); err != nil {
				t.Fatal(err)
			}
			before := tree(t, parent)
			a := buildArchive(t, name, "url: "+srv.URL+"/app."+tc.kind+"\nextract_parent: "+parent+"\ncreates: "+filepath.Join(parent, "marker"))
			a.limits = fixed(testLimits)
			if tc.limits != (limits{}) {
				a.limits = fixed(tc.limits)
			}
			_, err := resources.Converge(t.Context(), a, false, false)
			if !errors.Is(err, ErrExtract) || !strings.Contains(err.Error(), tc.want) ||
				!strings.Contains(err.Error(), name+" into "+parent) || !strings.Contains(err.Error(), "nothing was extracted") {
				t.Fatalf("got %v, want an extraction of %s refused because %s", err, name, tc.want)
			}
			if after := tree(t, parent); after != before {
				t.Errorf("extract_parent changed:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
}

// The error of a bound says what to do about it.
func TestBoundErrorsSayWhatToDo(t *testing.T) {
	srv := serve(t, zeros(t, "tar.gz", 8<<20), nil)
	dir := t.TempDir()
	name, parent := filepath.Join(dir, "app.tar.gz"), filepath.Join(dir, "opt")
	a := buildArchive(t, name, "url: "+srv.URL+"/app.tar.gz\nextract_parent: "+parent)
	a.limits = fixed(limits{total: 2 << 20, entry: 2 << 20, entries: 10})
	_, err := resources.Converge(t.Context(), a, false, false)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "90% of what its filesystem has free") ||
		!strings.Contains(err.Error(), "make room on the filesystem of "+parent) {
		t.Errorf("got %v", err)
	}
}

// A download stops past its bound whether the server says how long the
// response is or not, and nothing is left at the archive's path.
func TestDownloadsAreBounded(t *testing.T) {
	body := bytes.Repeat([]byte("x"), recheckEvery+1<<20)
	small := limits{total: 1 << 20, entry: 1 << 20, entries: 10}
	for _, tc := range []struct {
		name   string
		header func(w http.ResponseWriter)
		limits limits
		want   string
	}{
		{"no Content-Length", func(http.ResponseWriter) {}, small, "the response holds more than 1048576 bytes"},
		{"Content-Length", func(w http.ResponseWriter) { w.Header().Set("Content-Length", strconv.Itoa(len(body))) },
			small, "the response (Content-Length 9437184) holds more than 1048576 bytes"},
		{"filesystem filling meanwhile", func(http.ResponseWriter) {},
			limits{total: 1 << 40, entry: 1 << 40, entries: 10, dir: "/", floor: 1 << 62}, "its filesystem has less than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				tc.header(w)
				// Flushed in pieces: without Content-Length, chunked.
				for off := 0; off < len(body); off += 64 << 10 {
					if _, err := w.Write(body[off:min(off+64<<10, len(body))]); err != nil {
						return
					}
					w.(http.Flusher).Flush()
				}
			}))
			t.Cleanup(srv.Close)
			dir := t.TempDir()
			name := filepath.Join(dir, "app.tar")
			a := buildArchive(t, name, "url: "+srv.URL+"/app.tar")
			a.limits = fixed(tc.limits)
			_, err := resources.Converge(t.Context(), a, false, false)
			if !errors.Is(err, ErrDownload) || !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), tc.want) ||
				!strings.Contains(err.Error(), "nothing was written to "+name) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
			if left, _ := os.ReadDir(dir); len(left) > 0 {
				t.Errorf("left in %s: %v", dir, left)
			}
		})
	}
}

// tar is never given the bytes past a bound: what reaches its input stops
// within a read buffer of the bound.
func TestTarNeverGetsBytesPastTheBound(t *testing.T) {
	body := zeros(t, "tar.gz", 8<<20)
	var fed countingWriter
	m := &meter{limits: testLimits}
	err := feedTar(m, true, bytes.NewReader(body), &fed)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("got %v, want ErrTooLarge", err)
	}
	if fed > countingWriter(testLimits.entry)+64<<10 {
		t.Errorf("tar was given %d bytes, bound %d", fed, testLimits.entry)
	}
}

type countingWriter int64

func (c *countingWriter) Write(p []byte) (int, error) {
	*c += countingWriter(len(p))
	return len(p), nil
}

// The real bounds come from the filesystem's free space and inodes.
func TestLimitsFollowTheFreeSpace(t *testing.T) {
	dir := t.TempDir()
	l, err := limitsFor(dir)
	if err != nil {
		t.Fatal(err)
	}
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	free := int64(st.Bavail) * int64(st.Bsize)
	if l.total <= 0 || l.total > free*freeShare/100 || l.total < free*freeShare/100-int64(st.Bsize)*100 {
		t.Errorf("total %d, want %d%% of %d", l.total, freeShare, free)
	}
	if l.entry != min(l.total, maxEntrySize) || l.entries <= 0 || l.entries > maxEntries {
		t.Errorf("entry %d, entries %d", l.entry, l.entries)
	}
	if _, err := limitsFor(filepath.Join(dir, "missing")); err == nil {
		t.Error("no error for a missing directory")
	}
	for _, tc := range []struct {
		n, size uint64
		want    int64
	}{{1000, 4096, 900 * 4096}, {50, 1, 45}, {1 << 62, 1 << 20, (1<<63 - 1) / 100}} {
		if got := share(tc.n, tc.size); got < tc.want-int64(tc.size) || got > tc.want {
			t.Errorf("share(%d, %d) = %d, want about %d", tc.n, tc.size, got, tc.want)
		}
	}
}

// Zips extracted at once share the room: what one unzip was allowed is
// set aside until it ends, and others see that much less.
func TestUnzipsAtOnceShareTheRoom(t *testing.T) {
	dir := t.TempDir()
	l, err := limitsFor(dir)
	if err != nil {
		t.Fatal(err)
	}
	release, err := l.pledge(l.total / 2)
	if err != nil {
		t.Fatal(err)
	}
	// Others write to this filesystem too: a twentieth of slack.
	slack := l.total / 20
	during, err := limitsFor(dir)
	if err != nil {
		t.Fatal(err)
	}
	// 90% of what is left once half the bound is set aside.
	if want := l.total - l.total/2*freeShare/100; during.total > want+slack || during.total < want-slack {
		t.Errorf("with %d set aside, another gets %d, want about %d", l.total/2, during.total, want)
	}
	if _, err := l.pledge(l.total); !errors.Is(err, ErrTooLarge) {
		t.Errorf("a second zip as large as the bound was allowed beside the first: %v", err)
	}
	release()
	if n := pledged(l.dev); n != 0 {
		t.Errorf("%d bytes still set aside after release", n)
	}
	after, err := limitsFor(dir)
	if err != nil {
		t.Fatal(err)
	}
	if after.total < l.total-slack {
		t.Errorf("after release another gets %d, want about %d", after.total, l.total)
	}
}
