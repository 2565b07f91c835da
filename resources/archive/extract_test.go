package archive

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/resources/internal/command"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

func TestExtractionTimeoutKillsTheTool(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "app.tar")
	if err := os.WriteFile(name, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	a := buildArchive(t, name, "url: http://127.0.0.1:1/app.tar\nextract_parent: "+filepath.Join(dir, "out"))
	// A tool that never finishes, marked so its processes can be found.
	marker := "ccm-extract-" + filepath.Base(dir)
	a.format.tool = "/bin/sh"
	a.format.args = func(string, string) []string { return []string{"-c", "sleep 60; : " + marker} }
	a.extractTimeout = 200 * time.Millisecond
	err := a.extract(t.Context())
	if !errors.Is(err, command.ErrTimeout) || !errors.Is(err, ErrExtract) {
		t.Fatalf("got %v, want an extraction timeout", err)
	}
	if pids := processesUsing(t, marker); len(pids) > 0 {
		t.Errorf("the tool still runs after the timeout: pids %v", pids)
	}
}

func TestExtractionRefusesAFIFO(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "app.tar")
	// tar would block opening a FIFO nobody writes to.
	resourcetest.FIFO(t, name)
	a := buildArchive(t, name, "url: http://127.0.0.1:1/app.tar\nextract_parent: "+filepath.Join(dir, "out"))
	err := a.extract(t.Context())
	if !errors.Is(err, ErrExtract) || !strings.Contains(err.Error(), "is a FIFO, not an archive file") {
		t.Fatalf("got %v", err)
	}
}

func TestExtractionFailureSaysWhy(t *testing.T) {
	for _, tc := range []struct {
		name, kind string
		body       []byte
		want       string
	}{
		{"not a zip", "zip", []byte("not a zip"), "reading the zip archive: zip: not a valid zip file; nothing was extracted"},
		{"not gzip", "tar.gz", []byte("not a gzip stream at all"), "reading the tar archive: gzip: invalid header"},
		{"not a tar", "tar", bytes.Repeat([]byte("not a tar "), 100), "reading the tar archive: not a tar archive (uncompressed, gzip or bzip2)"},
		// archive/tar reads it, tar refuses the member: the tool's error.
		{"member tar refuses", "tar", craft(t, "tar", []member{file("../escape", 0o644, "x")}), "tar exited with code 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			name := filepath.Join(dir, "app."+tc.kind)
			if err := os.WriteFile(name, tc.body, 0o600); err != nil {
				t.Fatal(err)
			}
			a := buildArchive(t, name, "url: http://127.0.0.1:1/app."+tc.kind+"\nextract_parent: "+filepath.Join(dir, "out"))
			err := a.extract(t.Context())
			if !errors.Is(err, ErrExtract) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
}

// processesUsing lists the pids whose command line mentions text.
func processesUsing(t *testing.T, text string) []string {
	t.Helper()
	procs, err := filepath.Glob("/proc/[0-9]*/cmdline")
	if err != nil {
		t.Fatal(err)
	}
	var pids []string
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(b), text) {
			pids = append(pids, filepath.Base(filepath.Dir(p)))
		}
	}
	return pids
}

// tar -xf recognises a gzip-compressed .tar; so does ccm, which now reads
// the archive before tar does.
func TestGzippedTarNamedTarIsExtracted(t *testing.T) {
	dir := t.TempDir()
	name, parent := filepath.Join(dir, "app.tar"), filepath.Join(dir, "out")
	if err := os.WriteFile(name, fixture(t, "tar.gz", fixtureFiles), 0o600); err != nil {
		t.Fatal(err)
	}
	a := buildArchive(t, name, "url: http://127.0.0.1:1/app.tar\nextract_parent: "+parent)
	if err := a.extract(t.Context()); err != nil {
		t.Fatal(err)
	}
	assertExtracted(t, parent)
}
