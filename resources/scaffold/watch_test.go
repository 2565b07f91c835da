package scaffold

// End-to-end watch mode: a real manifest, graph and engine, the real
// inotify hub, an archive served on loopback that delivers the templates,
// and a scaffold rendering them. The archive's watch is tested here too,
// so the setup is written once.

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/enginetest"
	_ "github.com/reactive-ccm/ccm/resources/archive"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// release builds a tar.gz with the real tar and serves it on loopback.
func release(t *testing.T, files map[string]string) (url string, hits *atomic.Int64) {
	t.Helper()
	stage := t.TempDir()
	resourcetest.WriteTree(t, stage, files)
	tgz := filepath.Join(t.TempDir(), "app.tar.gz")
	if out, err := exec.Command("tar", "-czf", tgz, "-C", stage, ".").CombinedOutput(); err != nil {
		t.Skipf("tar unavailable: %v %s", err, out)
	}
	hits = &atomic.Int64{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.ServeFile(w, r, tgz)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/app.tar.gz", hits
}

func TestWatchRepairsArchiveAndScaffoldDrift(t *testing.T) {
	url, hits := release(t, map[string]string{
		"VERSION":                   "1\n",
		"templates/app.conf":        "name = [[ data.name ]]\n",
		"templates/conf.d/web.conf": "port = [[ data.port ]]\n",
	})
	dir := t.TempDir()
	archiveID, scaffoldID := "archive#"+dir+"/app.tar.gz", "scaffold#"+dir+"/etc/app"
	target := filepath.Join(dir, "etc/app")
	w := enginetest.Start(t, fmt.Sprintf(`
- archive:
    - %[1]s/app.tar.gz:
        url: %[2]s
        extract_parent: %[1]s/release
        creates: %[1]s/release/VERSION
        owner: "%[3]d"
        group: "%[4]d"
- scaffold:
    - %[1]s/etc/app:
        source: %[1]s/release/templates
        purge: true
        data: {name: shop, port: 8080}
        require: [%[5]s]
`, dir, url, os.Getuid(), os.Getgid(), archiveID), enginetest.Options{})
	w.Changed(t, archiveID)
	w.Changed(t, scaffoldID)
	w.Settle(t)

	steps := []struct {
		desc string
		id   string
		// trigger is drift, or source for an edit of the desired state.
		trigger engine.Trigger
		drift   func() error
		check   func() bool
	}{
		{"a hand-edited rendered file is re-rendered", scaffoldID, engine.TriggerDrift,
			func() error { return os.WriteFile(filepath.Join(target, "app.conf"), []byte("name = evil\n"), 0o644) },
			func() bool { return resourcetest.FileIs(filepath.Join(target, "app.conf"), "name = shop\n") }},
		{"a deleted rendered file is re-rendered", scaffoldID, engine.TriggerDrift,
			func() error { return os.Remove(filepath.Join(target, "conf.d/web.conf")) },
			func() bool { return resourcetest.FileIs(filepath.Join(target, "conf.d/web.conf"), "port = 8080\n") }},
		{"a stray file is purged", scaffoldID, engine.TriggerDrift,
			func() error { return os.WriteFile(filepath.Join(target, "conf.d/stray.conf"), []byte("x"), 0o644) },
			func() bool { _, err := os.Stat(filepath.Join(target, "conf.d/stray.conf")); return os.IsNotExist(err) }},
		{"an edited template re-renders", scaffoldID, engine.TriggerSource,
			func() error {
				return os.WriteFile(filepath.Join(dir, "release/templates/app.conf"), []byte("name = [[ data.name ]]!\n"), 0o644)
			},
			func() bool { return resourcetest.FileIs(filepath.Join(target, "app.conf"), "name = shop!\n") }},
		// Last: re-extracting rewrites the scaffold's templates, whose events
		// can come after Settle and make the next repair a source change.
		{"a deleted creates marker re-extracts", archiveID, engine.TriggerDrift,
			func() error { return os.Remove(filepath.Join(dir, "release/VERSION")) },
			func() bool {
				return resourcetest.FileIs(filepath.Join(dir, "release/VERSION"), "1\n") && hits.Load() == 1
			}},
	}
	for _, s := range steps {
		start := time.Now()
		if err := s.drift(); err != nil {
			t.Fatalf("%s: %v", s.desc, err)
		}
		ev := w.Changed(t, s.id)
		latency := time.Since(start)
		w.Settle(t)
		if ev.Trigger != s.trigger || !s.check() {
			t.Fatalf("%s: not repaired (event %+v)", s.desc, ev)
		}
		t.Logf("%s: repaired in %s", s.desc, latency.Round(time.Microsecond))
	}
}

// BenchmarkWatchRepairRenderedFile measures drift to repair in watch mode:
// a rendered file is overwritten, inotify reports it, the scaffold renders
// and compares its ten files, and rewrites the one that changed.
func BenchmarkWatchRepairRenderedFile(b *testing.B) {
	dir := b.TempDir()
	templates := map[string]string{}
	for i := range 10 {
		templates[fmt.Sprintf("templates/f%d.conf", i)] = fmt.Sprintf("file = %d\nname = [[ data.name ]]\n", i)
	}
	resourcetest.WriteTree(b, dir, templates)
	id := "scaffold#" + dir + "/etc/app"
	w := enginetest.Start(b, fmt.Sprintf("- scaffold:\n    - %[1]s/etc/app:\n        source: %[1]s/templates\n        data: {name: shop}\n", dir), enginetest.Options{})
	w.Changed(b, id)
	w.Settle(b)
	victim := filepath.Join(dir, "etc/app/f3.conf")
	for b.Loop() {
		if err := os.WriteFile(victim, []byte("drift\n"), 0o644); err != nil {
			b.Fatal(err)
		}
		w.Changed(b, id)
		w.Settle(b)
	}
	if !resourcetest.FileIs(victim, "file = 3\nname = shop\n") {
		b.Fatalf("f3.conf was not repaired: %v", readTree(b, filepath.Dir(victim)))
	}
}
