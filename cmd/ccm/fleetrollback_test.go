package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/enginetest"
)

// TestBundleRevisionThatBreaksItsServiceIsRolledBack: a new bundle
// revision whose manifest is the same but whose config file (the file
// resource's source) breaks the subscriber's health check is a new
// desired state, judged and rolled back, not a drift repaired.
func TestBundleRevisionThatBreaksItsServiceIsRolledBack(t *testing.T) {
	f := newFleet(t)
	dir := t.TempDir()
	conf := filepath.Join(dir, "app.conf")
	check := filepath.Join(dir, "check_app")
	script := "#!/bin/sh\ncase \"$(cat " + conf + ")\" in\n\"port = \"*[!0-9]*) echo \"CRITICAL - app refuses $(cat " + conf + ")\"; exit 2;;\nesac\necho OK\n"
	if err := os.WriteFile(check, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	const loc = "obj://ccm/app.tgz"
	manifest := `
- file:
    - ` + conf + `:
        ensure: present
        source: files/app.conf
        owner: root
        group: root
        mode: "0644"
- exec:
    - reload-app:
        command: /bin/true
        refreshonly: true
        subscribe: [file#` + conf + `]
        health_checks: [{command: ` + check + `}]
`
	f.publishTree(loc, map[string]string{"manifest.yaml": manifest, "files/app.conf": "port = 8080\n"})
	w := f.watch("--rollback", "--allow-unsigned", "--state-dir", t.TempDir(), loc)
	w.converged(2)

	f.publishTree(loc, map[string]string{"manifest.yaml": manifest, "files/app.conf": "port = eighty\n"})
	ev := w.waitFor("the bad revision rolled back", func(ev engine.Event) bool { return ev.Name == conf && ev.RolledBack })
	if !strings.Contains(strings.Join(ev.Error, ""), "app refuses port = eighty") {
		t.Fatalf("rolled back without the check's output: %+v", ev)
	}
	enginetest.Eventually(t, "the last good configuration back", func() bool { return fileIs(conf, "port = 8080\n", 0o644) })
}

// publishTree packs a bundle holding files (paths relative to its root)
// and pushes it to loc.
func (f *fleet) publishTree(loc string, files map[string]string) {
	f.t.Helper()
	root := f.t.TempDir()
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			f.t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			f.t.Fatal(err)
		}
	}
	out := filepath.Join(f.t.TempDir(), "bundle.tgz")
	f.must("bundle", "pack", root, "-o", out)
	f.must("bundle", "push", out, loc)
}
