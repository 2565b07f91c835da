package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/enginetest"
)

// watched is a tree of files under a managed directory, with a
// refreshonly exec counting the repairs of one config file.
const watched = `
- file:
    - defaults: {owner: root, group: root, mode: "0644"}
    - @/srv:
        ensure: directory
        mode: "0755"
    - @/srv/app:
        ensure: directory
        mode: "0755"
    - @/srv/app/app.conf:
        ensure: present
        content: "port = 80\n"
    - @/srv/app/motd:
        ensure: present
        content: "hello\n"
- exec:
    - count-reloads:
        command: /bin/sh -c "echo x >> @/reloads"
        refreshonly: true
        subscribe: [file#@/srv/app/app.conf]
`

// fileIs reports whether path holds content with mode.
func fileIs(path, content string, mode os.FileMode) bool {
	b, err := os.ReadFile(path)
	if err != nil || string(b) != content {
		return false
	}
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().Perm() == mode
}

func reloads(dir string) int {
	b, _ := os.ReadFile(filepath.Join(dir, "reloads"))
	return strings.Count(string(b), "x")
}

func TestWatchRepairsEveryKindOfFileDrift(t *testing.T) {
	dir := t.TempDir()
	m := manifest(t, dir, watched)
	// Seven tamperings within a minute would make app.conf contested
	// (and hold its refreshes); this test is about repairing each kind.
	w := startWatch(t, "--contest-limit", "100", m)
	w.converged(5)
	conf := dir + "/srv/app/app.conf"
	good := func() bool { return fileIs(conf, "port = 80\n", 0o644) }

	steps := []struct {
		name string
		do   func() error
	}{
		{"overwrite", func() error { return os.WriteFile(conf, []byte("port = 81\n"), 0o644) }},
		{"append", func() error {
			f, err := os.OpenFile(conf, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = f.WriteString("extra\n")
			return err
		}},
		{"chmod", func() error { return os.Chmod(conf, 0o666) }},
		{"delete", func() error { return os.Remove(conf) }},
		{"atomic replace", func() error {
			if err := os.WriteFile(conf+".new", []byte("other\n"), 0o644); err != nil {
				return err
			}
			return os.Rename(conf+".new", conf)
		}},
		{"rm -rf of the managed tree", func() error {
			// rm races with the repairs it triggers and may find a
			// directory refilled; either way the tree must come back.
			_ = exec.Command("rm", "-rf", dir+"/srv").Run()
			return nil
		}},
		{"ancestor renamed away", func() error { return os.Rename(dir+"/srv", dir+"/srv.old") }},
	}
	for _, s := range steps {
		before := reloads(dir)
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		enginetest.Eventually(t, s.name+" repaired", good)
		// A content repair is a change: the subscribed exec runs again.
		if s.name != "chmod" {
			enginetest.Eventually(t, s.name+" refreshed the subscriber", func() bool { return reloads(dir) > before })
		}
	}
	enginetest.Eventually(t, "motd restored after the tree was removed and renamed", func() bool { return fileIs(dir+"/srv/app/motd", "hello\n", 0o644) })
}

func TestWatchReloadsManifestsAndSurvivesABrokenOne(t *testing.T) {
	dir := t.TempDir()
	m := manifest(t, dir, watched)
	w := startWatch(t, m)
	w.converged(5)

	writeManifest(t, m, dir, watched+"\n- file:\n    - @/x: {ensure: present, colour: red}\n")
	enginetest.Eventually(t, "the broken manifest to be reported", func() bool {
		return strings.Contains(w.logs(), "reload failed; the running manifests stay in force")
	})
	if err := os.Remove(dir + "/srv/app/motd"); err != nil {
		t.Fatal(err)
	}
	enginetest.Eventually(t, "repairs to go on after a failed reload", func() bool { return fileIs(dir+"/srv/app/motd", "hello\n", 0o644) })

	writeManifest(t, m, dir, watched+`
- file:
    - @/srv/app/new:
        ensure: present
        content: "new\n"
        owner: root
        group: root
        mode: "0644"
`)
	ev := w.waitFor("the new resource", func(ev engine.Event) bool { return ev.Name == dir+"/srv/app/new" && ev.Changed })
	if ev.Trigger != engine.TriggerReload {
		t.Fatalf("trigger = %s, want reload", ev.Trigger)
	}
	// The reload is logged once the swap returns, which may be after the
	// new resource's event.
	enginetest.Eventually(t, "the reload to be logged", func() bool { return strings.Contains(w.logs(), "reloaded manifests") })
}

// inotifyFDs counts the inotify instances a process holds open.
func inotifyFDs(t *testing.T, pid int) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/fd")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, fd := range fds {
		if target, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/fd/" + fd.Name()); err == nil && target == "anon_inode:inotify" {
			n++
		}
	}
	return n
}

func TestPollingModeOpensNoInotifyAndStillRepairs(t *testing.T) {
	dir := t.TempDir()
	m := manifest(t, dir, watched)
	w := startWatch(t, "--poll", "100ms", m)
	w.converged(5)
	if n := inotifyFDs(t, w.cmd.Process.Pid); n != 0 {
		t.Fatalf("polling mode holds %d inotify instances, want 0", n)
	}
	if err := os.WriteFile(dir+"/srv/app/motd", []byte("tampered\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ev := w.waitFor("the poll to repair motd", func(ev engine.Event) bool { return ev.Changed && strings.HasSuffix(ev.Name, "/motd") })
	if ev.Trigger != engine.TriggerPoll {
		t.Fatalf("trigger = %s, want poll", ev.Trigger)
	}
}

func TestWatchModeUsesOneInotifyInstance(t *testing.T) {
	dir := t.TempDir()
	w := startWatch(t, manifest(t, dir, watched))
	w.converged(5)
	if n := inotifyFDs(t, w.cmd.Process.Pid); n != 1 {
		t.Fatalf("%d inotify instances, want exactly 1 for the whole process", n)
	}
}

// inUserNamespace runs ccm as root of a new user namespace whose inotify
// limits the script lowers first.
func inUserNamespace(t *testing.T, limits string, args ...string) *watcher {
	t.Helper()
	if err := exec.Command("unshare", "--user", "--map-root-user", "true").Run(); err != nil {
		t.Skipf("user namespaces unavailable: %v", err)
	}
	script := limits + ` && exec "$@"`
	full := append([]string{"--user", "--map-root-user", "sh", "-c", script, "sh", bin, "run", "--watch", "--json"}, args...)
	return startCmd(t, exec.Command("unshare", full...))
}

// TestRefusedInotifyFallsBackToPolling: when the kernel refuses some
// watches (the deep paths' chains cannot all be armed) or every inotify
// instance, ccm says so once and polls what it could not watch, and the
// polls repair.
func TestRefusedInotifyFallsBackToPolling(t *testing.T) {
	for _, c := range []struct {
		name, limits, warning string
		tamper                func(motd string) error
	}{
		{"few watches", "echo 3 > /proc/sys/user/max_inotify_watches", "the kernel refused an inotify watch; polling",
			func(motd string) error { return os.WriteFile(motd, []byte("tampered\n"), 0o644) }},
		{"no inotify at all", "echo 0 > /proc/sys/user/max_inotify_instances", "inotify unavailable; polling every watched resource",
			func(motd string) error { return os.Chmod(motd, 0o600) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			w := inUserNamespace(t, c.limits, "--poll-interval", "100ms", manifest(t, dir, watched))
			w.converged(5)
			if n := strings.Count(w.logs(), c.warning); n != 1 {
				t.Fatalf("the fallback warning logged %d times, want once:\n%s", n, w.logs())
			}
			motd := dir + "/srv/app/motd"
			if err := c.tamper(motd); err != nil {
				t.Fatal(err)
			}
			ev := w.waitFor("the fallback poll to repair motd", func(ev engine.Event) bool { return ev.Changed && strings.HasSuffix(ev.Name, "/motd") })
			// A path inotify refused is polled: its checks are polls, not drift.
			if ev.Trigger != engine.TriggerPoll {
				t.Fatalf("trigger = %s, want poll", ev.Trigger)
			}
			if !fileIs(motd, "hello\n", 0o644) {
				t.Fatal("motd not repaired")
			}
		})
	}
}

func TestSIGTERMStopsPromptlyWithExitZero(t *testing.T) {
	dir := t.TempDir()
	w := startWatch(t, manifest(t, dir, watched))
	w.converged(5)
	// stop fails the test unless ccm exits within 5s of SIGTERM.
	w.stop()
	if !w.cmd.ProcessState.Success() || w.cmd.ProcessState.Sys().(syscall.WaitStatus).Signaled() {
		t.Fatalf("state = %v", w.cmd.ProcessState)
	}
}
