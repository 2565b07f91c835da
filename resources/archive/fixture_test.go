package archive

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/user"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// fixtureFiles is the content of every fixture archive.
var fixtureFiles = map[string]string{
	"app/bin/app": "#!/bin/sh\necho app\n",
	"app/README":  "the app\n",
}

// fixture builds an archive of kind ("tar.gz", "tar" or "zip") holding files.
func fixture(t testing.TB, kind string, files map[string]string) []byte {
	t.Helper()
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var buf bytes.Buffer
	var err error
	switch kind {
	case "zip":
		err = writeZip(&buf, names, files)
	case "tar":
		err = writeTar(&buf, names, files)
	case "tar.gz":
		gz := gzip.NewWriter(&buf)
		if err = writeTar(gz, names, files); err == nil {
			err = gz.Close()
		}
	default:
		t.Fatalf("unknown fixture kind %q", kind)
	}
	if err != nil {
		t.Fatalf("building %s fixture: %v", kind, err)
	}
	return buf.Bytes()
}

func writeTar(w interface{ Write([]byte) (int, error) }, names []string, files map[string]string) error {
	tw := tar.NewWriter(w)
	for _, n := range names {
		body := files[n]
		if err := tw.WriteHeader(&tar.Header{Name: n, Mode: 0o755, Size: int64(len(body))}); err != nil {
			return err
		}
		if _, err := tw.Write([]byte(body)); err != nil {
			return err
		}
	}
	return tw.Close()
}

func writeZip(w interface{ Write([]byte) (int, error) }, names []string, files map[string]string) error {
	zw := zip.NewWriter(w)
	for _, n := range names {
		f, err := zw.Create(n)
		if err != nil {
			return err
		}
		if _, err := f.Write([]byte(files[n])); err != nil {
			return err
		}
	}
	return zw.Close()
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// server serves body at every path on loopback and counts the requests.
// check, when set, may reject a request by returning an HTTP status.
type server struct {
	*httptest.Server
	hits atomic.Int64
}

func serve(t testing.TB, body []byte, check func(r *http.Request) int) *server {
	t.Helper()
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		if check != nil {
			if code := check(r); code != 0 {
				w.WriteHeader(code)
				return
			}
		}
		w.Write(body)
	}))
	t.Cleanup(s.Close)
	return s
}

// owners returns the current user and group names: the tests' archives
// belong to whoever runs them.
func owners(t testing.TB) (string, string) {
	t.Helper()
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	g, err := user.LookupGroupId(u.Gid)
	if err != nil {
		t.Fatal(err)
	}
	return u.Username, g.Name
}

// buildArchive builds an archive resource named name from YAML properties;
// the owner and group are the current user's unless props set them.
func buildArchive(t testing.TB, name, props string) *archive {
	t.Helper()
	u, g := owners(t)
	if !strings.Contains(props, "owner:") {
		props += fmt.Sprintf("\nowner: %s\ngroup: %s", u, g)
	}
	inst, err := resourcetest.Build(t, "archive", name, props, t.TempDir())
	if err != nil {
		t.Fatalf("building archive#%s: %v", name, err)
	}
	a, ok := inst.Resource.(*archive)
	if !ok {
		_, err := inst.Resource.Check(t.Context())
		t.Skipf("archive#%s cannot run here: %v", name, err)
	}
	return a
}
