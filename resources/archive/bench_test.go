package archive

import (
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// BenchmarkCheckConverged measures the check the engine runs on every
// event for a converged 8 MiB archive with a checksum (hashing dominates).
func BenchmarkCheckConverged(b *testing.B) {
	files := map[string]string{"app/blob": rand.Text() + string(make([]byte, 8<<20))}
	body := fixture(b, "tar", files)
	srv := serve(b, body, nil)
	dir := b.TempDir()
	name := filepath.Join(dir, "app.tar")
	props := fmt.Sprintf("url: %s/app.tar\nchecksum: %s\nextract_parent: %s\ncreates: %s",
		srv.URL, sum(body), dir, filepath.Join(dir, "app/blob"))
	a := buildArchive(b, name, props)
	resourcetest.Converge(b.Context(), b, a, false, false)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if st, err := a.Check(b.Context()); err != nil || !st.Desired {
			b.Fatalf("%+v %v", st, err)
		}
	}
}

// BenchmarkDownloadAndExtract measures a full converge from nothing of a
// small tar.gz served on loopback: download, verify, rename, tar -xzf.
func BenchmarkDownloadAndExtract(b *testing.B) {
	body := fixture(b, "tar.gz", fixtureFiles)
	srv := serve(b, body, nil)
	dir := b.TempDir()
	name := filepath.Join(dir, "app.tar.gz")
	parent := filepath.Join(dir, "opt")
	props := fmt.Sprintf("url: %s/app.tar.gz\nchecksum: %s\nextract_parent: %s\ncreates: %s",
		srv.URL, sum(body), parent, filepath.Join(parent, "app/bin/app"))
	a := buildArchive(b, name, props)
	for b.Loop() {
		if err := os.RemoveAll(parent); err != nil {
			b.Fatal(err)
		}
		if err := os.Remove(name); err != nil && !os.IsNotExist(err) {
			b.Fatal(err)
		}
		resourcetest.Converge(b.Context(), b, a, false, false)
	}
}
