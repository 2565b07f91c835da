package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/enginetest"
)

// nested is upstream's docs example of composed manifests: a child with
// data from its parent, a noop child, and an exec notified when the
// first child changed anything.
var nested = map[string]string{
	"manifest.yaml": `
ccm:
  resources:
    - apply:
        - config/manifest.yaml:
            data:
              port: 8080
        - dry/manifest.yaml:
            noop: true
    - exec:
        - notify:
            command: /bin/sh -c "echo notified >> @/notified"
            refreshonly: true
            subscribe:
              - apply#config/manifest.yaml
`,
	"config/manifest.yaml": `
data:
  port: 80
  name: app
ccm:
  resources:
    - file:
        - @/app.conf:
            ensure: present
            owner: root
            group: root
            mode: "0644"
            content: "{{ Data.name }} listens on {{ Data.port }}\n"
`,
	"dry/manifest.yaml": `
ccm:
  resources:
    - file:
        - @/dry.txt:
            ensure: present
            owner: root
            group: root
            mode: "0644"
            content: "never written\n"
`,
}

func writeTree(t *testing.T, dir string, tree map[string]string) {
	t.Helper()
	for name, src := range tree {
		write(t, filepath.Join(dir, name), strings.ReplaceAll(src, "@", dir))
	}
}

func TestNestedApply(t *testing.T) {
	needRoot(t)
	dir := t.TempDir()
	writeTree(t, dir, nested)
	m := filepath.Join(dir, "manifest.yaml")
	r := ccm(t, "apply", m)
	if r.code != 0 {
		t.Fatalf("first run: %+v", r)
	}
	if got := read(t, filepath.Join(dir, "app.conf")); got != "app listens on 8080\n" {
		t.Fatalf("app.conf %q: the apply resource's data is merged over the child's", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "dry.txt")); !os.IsNotExist(err) {
		t.Fatal("a noop child changed the host")
	}
	// The noop child's file and its apply resource changed nothing.
	if !strings.Contains(r.stdout, " changed, 2 would change, 0 failed") {
		t.Fatalf("the summary counts the noop child's would-be changes as changes:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, "changed   apply#config/manifest.yaml") || read(t, filepath.Join(dir, "notified")) != "notified\n" {
		t.Fatalf("a change in the child refreshes apply#config/manifest.yaml's subscriber:\n%s", r.stdout)
	}
	r = ccm(t, "apply", m)
	if r.code != 0 || read(t, filepath.Join(dir, "notified")) != "notified\n" {
		t.Fatalf("second run changed something or notified again: %+v", r)
	}
	t.Run("a failed child blocks its apply resource", func(t *testing.T) {
		writeTree(t, dir, map[string]string{"config/manifest.yaml": "ccm: {resources: [{exec: [{/bin/false: {}}]}]}\n"})
		r := ccm(t, "run", m)
		if r.code != 1 || !strings.Contains(r.stdout, "skipped   apply#config/manifest.yaml: blocked by failed exec#/bin/false") {
			t.Fatalf("%+v", r)
		}
	})
}

func TestNestedApplyWatchReloadsTheChild(t *testing.T) {
	needRoot(t)
	dir := t.TempDir()
	writeTree(t, dir, nested)
	w := startWatch(t, filepath.Join(dir, "manifest.yaml"))
	w.waitFor("the child's file", func(ev engine.Event) bool { return strings.HasSuffix(ev.Name, "/app.conf") && ev.Changed })
	writeTree(t, dir, map[string]string{"config/manifest.yaml": strings.Replace(nested["config/manifest.yaml"], "listens on", "serves on", 1)})
	enginetest.Eventually(t, "app.conf rewritten after the child manifest changed", func() bool {
		b, _ := os.ReadFile(filepath.Join(dir, "app.conf"))
		return string(b) == "app serves on 8080\n"
	})
	w.waitFor("the subscriber refreshed by the reloaded child", func(ev engine.Event) bool { return ev.Name == "notify" && ev.Refreshed })
}

func TestNestedApplyHealthCheckOnly(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"m.yaml":     "ccm:\n  resources:\n    - apply:\n        - child.yaml: {health_check_only: true}\n",
		"child.yaml": "ccm:\n  resources:\n    - exec:\n        - /bin/touch @/ran:\n            health_checks:\n              - command: /bin/true\n",
	})
	r := ccm(t, "run", "--json", filepath.Join(dir, "m.yaml"))
	if r.code != 0 || !strings.Contains(r.stdout, `"health_check_only":true`) || !strings.Contains(r.stdout, `"health_check_ok_count":1`) {
		t.Fatalf("%+v", r)
	}
	if _, err := os.Stat(filepath.Join(dir, "ran")); !os.IsNotExist(err) {
		t.Fatal("a health-check-only child resource was converged")
	}
}

// TestApplyReadsTheChildWhenItRuns is upstream's "write the manifests,
// then apply them": a child an earlier resource writes (or rewrites) is
// read when its apply resource runs, and a missing child fails only its
// apply resource and what requires it.
func TestApplyReadsTheChildWhenItRuns(t *testing.T) {
	needRoot(t)
	dir := t.TempDir()
	child := "ccm:\n  resources:\n    - exec:\n        - /usr/bin/touch @/from-child:\n            creates: @/from-child\n"
	writeTree(t, dir, map[string]string{
		// What the child said before this run: a resource this run no
		// longer has.
		"child.yaml": "ccm: {resources: [{exec: [{'/usr/bin/touch @/stale': {creates: @/stale}}]}]}\n",
		"m.yaml": `
ccm:
  resources:
    - file:
        - @/child.yaml:
            ensure: present
            owner: root
            group: root
            mode: "0644"
            content: "` + strings.ReplaceAll(child, "\n", `\n`) + `"
    - apply:
        - child.yaml: {}
        - missing.yaml: {}
    - exec:
        - /usr/bin/touch @/needs-missing:
            require: [apply#missing.yaml]
        - /usr/bin/touch @/notified:
            subscribe: [apply#child.yaml]
            refreshonly: true
`,
	})
	m := filepath.Join(dir, "m.yaml")
	if r := ccm(t, "validate", m); r.code != 0 || !strings.Contains(r.stdout, "apply#missing.yaml: not checked: reading manifest: open "+dir+"/missing.yaml: no such file or directory") {
		t.Fatalf("validate: a missing child is named, not an error: %+v", r)
	}
	r := ccm(t, "run", m)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1: the missing child fails its apply resource\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		"changed   exec#/usr/bin/touch " + dir + "/from-child",
		"changed   apply#child.yaml",
		"failed    apply#missing.yaml: reading manifest: open " + dir + "/missing.yaml: no such file or directory",
		"skipped   exec#/usr/bin/touch " + dir + "/needs-missing: blocked by failed apply#missing.yaml",
		"refreshed exec#/usr/bin/touch " + dir + "/notified",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("missing %q in\n%s", want, r.stdout)
		}
	}
	for name, want := range map[string]bool{"from-child": true, "notified": true, "stale": false, "needs-missing": false} {
		if _, err := os.Stat(filepath.Join(dir, name)); (err == nil) != want {
			t.Errorf("%s exists: %v, want %v", name, err == nil, want)
		}
	}
}

func TestApplyWatchLoadsAChildThatAppears(t *testing.T) {
	needRoot(t)
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"m.yaml": "ccm: {resources: [{apply: [{later.yaml: {}}]}]}\n"})
	w := startWatch(t, filepath.Join(dir, "m.yaml"))
	w.waitFor("the apply resource failing", func(ev engine.Event) bool { return ev.Name == "later.yaml" && ev.Failed })
	writeTree(t, dir, map[string]string{"later.yaml": "ccm: {resources: [{exec: [{'/usr/bin/touch @/appeared': {creates: @/appeared}}]}]}\n"})
	w.waitFor("the child's resource", func(ev engine.Event) bool { return strings.HasSuffix(ev.Name, "/appeared") && ev.Changed })
}
