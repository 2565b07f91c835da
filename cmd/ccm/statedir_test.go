package main_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/enginetest"
)

// hangsOnce is a config file with a refreshonly exec that hangs the first
// time it runs (writing its pid) and succeeds afterwards.
const hangsOnce = `
- file:
    - @/app.conf:
        ensure: present
        content: "port = 80\n"
        owner: root
        group: root
        mode: "0644"
- exec:
    - reload-app:
        command: /bin/sh -c "echo run >> @/runs; test -f @/ran-once && exit 0; echo $$ > @/ran-once; exec sleep 600"
        refreshonly: true
        subscribe: [file#@/app.conf]
`

func runs(dir string) int {
	b, _ := os.ReadFile(filepath.Join(dir, "runs"))
	return strings.Count(string(b), "run")
}

// killHung kills the exec the first run left hanging, by the pid it wrote.
func killHung(t *testing.T, dir string) {
	b, err := os.ReadFile(filepath.Join(dir, "ran-once"))
	if err != nil {
		return
	}
	if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 1 {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

func TestPendingRefreshSurvivesKill9(t *testing.T) {
	dir, states := t.TempDir(), t.TempDir()
	t.Cleanup(func() { killHung(t, dir) })
	m := manifest(t, dir, hangsOnce)
	first := startWatch(t, "--state-dir", states, m)
	first.waitFor("the config file written", func(ev engine.Event) bool {
		return ev.Type == "file" && ev.Changed
	})
	enginetest.Eventually(t, "the refresh to start", func() bool { return runs(dir) == 1 })
	// Killed between the change and the end of its refresh: no chance to
	// save anything now.
	if err := first.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-first.exited
	killHung(t, dir)
	pending, err := filepath.Glob(filepath.Join(states, "refreshes", "*.json"))
	if err != nil || len(pending) != 1 {
		t.Fatalf("pending refresh files %v, %v; want one", pending, err)
	}
	if b := read(t, pending[0]); !strings.Contains(b, "exec#reload-app") {
		t.Fatalf("the pending refresh file holds %s", b)
	}

	// The config file is already right: only the saved refresh can make
	// the exec run.
	second := startWatch(t, "--state-dir", states, m)
	ev := second.waitFor("the replayed refresh", func(ev engine.Event) bool { return ev.Type == "exec" })
	if !ev.Refreshed || ev.Failed || ev.Trigger != engine.TriggerStartup {
		t.Fatalf("exec after the restart: %+v, want a successful refresh", ev)
	}
	if n := runs(dir); n != 2 {
		t.Fatalf("the exec ran %d times, want 2", n)
	}
	second.stop()
	if left, _ := filepath.Glob(filepath.Join(states, "refreshes", "*.json")); len(left) != 0 {
		t.Fatalf("the consumed refresh is still on disk: %v", left)
	}
	if r := ccm(t, "run", "--state-dir", states, m); r.code != 0 || runs(dir) != 2 {
		t.Fatalf("a third start re-ran the consumed refresh (runs %d, exit %d)\n%s%s", runs(dir), r.code, r.stdout, r.stderr)
	}
}

func TestStateDirFlag(t *testing.T) {
	dir := t.TempDir()
	m := manifest(t, dir, "- file:\n    - @/f: {ensure: present, content: x, owner: root, group: root, mode: \"0644\"}\n")
	if r := ccm(t, "run", "--state-dir", "/proc/version", m); r.code != 2 || !strings.Contains(r.stderr, "--state-dir") {
		t.Fatalf("an unusable --state-dir: exit %d, stderr %q; want exit 2 naming the flag", r.code, r.stderr)
	}
	states := filepath.Join(dir, "new", "state")
	if r := ccm(t, "run", "--noop", "--state-dir", states, m); r.code != 0 {
		t.Fatalf("noop run: exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(states); err == nil {
		t.Fatal("noop created the state directory")
	}
	// As upstream: a run that records nothing leaves nothing but what it
	// manages.
	if r := ccm(t, "run", "--state-dir", states, m); r.code != 0 {
		t.Fatalf("run: exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "new")); err == nil {
		t.Fatal("a run that records nothing made the state directory")
	}
	// A refresh owed and done in the run leaves nothing either: its record
	// is removed, and the directories it made with it (as upstream, which
	// keeps no record).
	done := manifest(t, dir, "- file:\n    - @/f: {ensure: present, content: z, owner: root, group: root, mode: \"0644\"}\n"+
		"- exec:\n    - refreshes: {command: /bin/true, refreshonly: true, subscribe: [file#@/f]}\n")
	if r := ccm(t, "run", "--state-dir", states, done); r.code != 0 || !strings.Contains(r.stdout, "exec#refreshes") {
		t.Fatalf("run with a refresh: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "new")); err == nil {
		t.Fatal("a run whose refresh was done left the state directory")
	}
	// A refresh that fails is owed: the first record makes the directory.
	owed := manifest(t, dir, "- file:\n    - @/f: {ensure: present, content: y, owner: root, group: root, mode: \"0644\"}\n"+
		"- exec:\n    - fails: {command: /bin/false, refreshonly: true, subscribe: [file#@/f]}\n")
	if r := ccm(t, "run", "--state-dir", states, owed); r.code != 1 {
		t.Fatalf("run with a failing refresh: exit %d, want 1\n%s", r.code, r.stderr)
	}
	for _, p := range []string{states, filepath.Join(states, "refreshes")} {
		if st, err := os.Stat(p); err != nil || st.Mode().Perm() != 0o700 {
			t.Fatalf("%s: %v, %v; want a directory, mode 0700", p, st, err)
		}
	}
	if pending, _ := filepath.Glob(filepath.Join(states, "refreshes", "*.json")); len(pending) != 1 {
		t.Fatalf("pending refresh files %v; want one", pending)
	}
	if _, err := os.Stat(filepath.Join(states, "rollback")); err == nil {
		t.Fatal("a run without rollback made rollback/")
	}
}
