package main_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reactive-ccm/ccm/engine"
)

// installThenUse is the example: the second exec needs what the
// first one makes, and no require says so.
const installThenUse = `
ccm:
  resources:
    - exec:
        - install-thing:
            command: /bin/sh -c "sleep 0.5; touch @/installed"
            creates: @/installed
        - use-thing:
            command: /usr/bin/test -f @/installed
    - exec:
        - reader:
            command: "/bin/echo ${ file('@/installed') }read"
`

func TestWrittenOrderWithoutRequire(t *testing.T) {
	t.Run("one-shot", func(t *testing.T) {
		dir := t.TempDir()
		if r := ccm(t, "run", manifest(t, dir, installThenUse)); r.code != 0 {
			t.Fatalf("exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
		}
	})
	t.Run("watch", func(t *testing.T) {
		dir := t.TempDir()
		w := startWatch(t, manifest(t, dir, installThenUse))
		for range 3 {
			ev := w.waitFor("startup convergence", func(ev engine.Event) bool { return ev.Trigger == engine.TriggerStartup })
			if ev.Failed {
				t.Fatalf("%s failed: %v", ev.ID(), ev.Error)
			}
		}
		w.stop()
	})
}

func TestFailOnErrorRunsNothingAfterTheFailure(t *testing.T) {
	dir := t.TempDir()
	m := manifest(t, dir, `
ccm:
  fail_on_error: true
  resources:
    - exec:
        - /usr/bin/false: {}
        - /usr/bin/touch @/after: {}
`)
	r := ccm(t, "run", m)
	if r.code != 1 || !strings.Contains(r.stdout, "skipped   exec#/usr/bin/touch "+dir+"/after: not run: fail_on_error") {
		t.Fatalf("exit %d, want 1 and the touch reported skipped\n%s", r.code, r.stdout)
	}
	if _, err := os.Stat(filepath.Join(dir, "after")); !os.IsNotExist(err) {
		t.Fatal("a resource after the failure ran")
	}
	r = ccm(t, "run", "--json", m)
	var events []string
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var ev engine.Event
		if err := json.Unmarshal([]byte(line), &ev); err == nil && ev.Protocol == engine.EventProtocol {
			events = append(events, ev.ID())
		}
	}
	if len(events) != 1 || events[0] != "exec#/usr/bin/false" {
		t.Fatalf("transaction events %v: as upstream, none for what did not run", events)
	}
	if !strings.Contains(r.stdout, `"skipped_resources":1`) {
		t.Fatalf("the summary must count the resource not run as skipped:\n%s", r.stdout)
	}
}

// TestFailOnErrorStopsAFileGroup is the example: consecutive
// files, the first of which fails, on every number of workers.
func TestFailOnErrorStopsAFileGroup(t *testing.T) {
	for workers := 1; workers <= 8; workers++ {
		t.Run(fmt.Sprintf("%d workers", workers), func(t *testing.T) {
			dir := t.TempDir()
			m := manifest(t, dir, `
ccm:
  fail_on_error: true
  resources:
    - file:
        - defaults: {ensure: present, content: x, owner: root, group: root, mode: "0644"}
        - @/missing/a: {}
        - @/b: {}
        - @/c: {}
        - @/d: {}
`)
			r := ccm(t, "run", "--workers", fmt.Sprint(workers), m)
			if r.code != 1 || !strings.Contains(r.stdout, "0 changed, 1 failed, 3 skipped") {
				t.Fatalf("exit %d, want 1 with the three files after the failure not run\n%s", r.code, r.stdout)
			}
			for _, f := range []string{"b", "c", "d"} {
				if _, err := os.Stat(filepath.Join(dir, f)); !os.IsNotExist(err) {
					t.Fatalf("%s was written after the failure", f)
				}
			}
		})
	}
}
