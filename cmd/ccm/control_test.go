package main_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/status"
	"github.com/reactive-ccm/ccm/engine/enginetest"
)

// daemonStatus asks a running daemon for its report.
func daemonStatus(t *testing.T, w *watcher) status.Report {
	t.Helper()
	r := ccm(t, "status", "--json", "--socket", w.socket)
	if r.code != 0 {
		t.Fatalf("ccm status: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	var rep status.Report
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("ccm status --json: %v\n%s", err, r.stdout)
	}
	return rep
}

func resourceIn(t *testing.T, rep status.Report, id string) status.Resource {
	t.Helper()
	for _, r := range rep.Resources {
		if r.ID == id {
			return r
		}
	}
	t.Fatalf("%s not in the status report", id)
	return status.Resource{}
}

func TestStatusReportsEveryResourceAndTheDaemon(t *testing.T) {
	dir := t.TempDir()
	w := startWatch(t, manifest(t, dir, watched))
	w.converged(5)
	motd := dir + "/srv/app/motd"
	if err := os.Chmod(motd, 0o600); err != nil {
		t.Fatal(err)
	}
	w.waitFor("the mode repair", func(ev engine.Event) bool { return ev.Name == motd && ev.Changed })

	rep := daemonStatus(t, w)
	if rep.Counts.Resources != 5 || rep.Counts.Converged != 5 {
		t.Fatalf("counts = %+v", rep.Counts)
	}
	if d := rep.Daemon; d.PID != w.cmd.Process.Pid || d.Watches == 0 || d.Uptime <= 0 || d.LastConverged.IsZero() {
		t.Fatalf("daemon = %+v", d)
	}
	res := resourceIn(t, rep, "file#"+motd)
	if c := res.LastChange; c == nil || c.Trigger != "drift" || len(c.Changes) != 1 || c.Changes[0].String() != "mode 0600 → 0644" {
		t.Fatalf("last change = %+v", c)
	}
	human := ccm(t, "status", "--socket", w.socket)
	if human.code != 0 || !strings.Contains(human.stdout, "5 resources: 5 converged") || !strings.Contains(human.stdout, "drift: mode 0600 → 0644") {
		t.Fatalf("ccm status: exit %d\n%s%s", human.code, human.stdout, human.stderr)
	}
}

func TestPausedResourceIsReportedNotChangedAndThePauseEnds(t *testing.T) {
	dir := t.TempDir()
	w := startWatch(t, manifest(t, dir, watched))
	w.converged(5)
	motd := dir + "/srv/app/motd"
	id := "file#" + motd
	// Long enough for the drift below to be checked while paused.
	if r := ccm(t, "pause", id, "--for", "4s", "--socket", w.socket); r.code != 0 || !strings.Contains(r.stdout, "paused "+id+" by root until") {
		t.Fatalf("ccm pause: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if err := os.WriteFile(motd, []byte("hands off\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ev := w.waitFor("the paused drift", func(ev engine.Event) bool { return ev.Name == motd && ev.Changed })
	if !ev.Paused || !ev.Noop || len(ev.Changes) != 1 || ev.Changes[0].Property != "content" {
		t.Fatalf("event = %+v, want a paused would-repair of the content", ev)
	}
	if got := read(t, motd); got != "hands off\n" {
		t.Fatalf("a paused resource was changed: %q", got)
	}
	res := resourceIn(t, daemonStatus(t, w), id)
	if res.Standing != status.Paused || res.Paused == nil || res.Paused.By != "root" || res.Paused.Until.IsZero() || len(res.Drift) != 1 {
		t.Fatalf("status of the paused resource = %+v", res)
	}
	// The write may have been seen half done too: a second paused report
	// of a different drift is fine.
	ev = w.waitFor("the repair once the pause ended", func(ev engine.Event) bool { return ev.Name == motd && ev.Changed && !ev.Paused })
	if ev.Trigger != engine.TriggerResume || ev.Paused || read(t, motd) != "hello\n" {
		t.Fatalf("event = %+v, content %q", ev, read(t, motd))
	}
}

func TestPauseAllResumeAndRecheck(t *testing.T) {
	dir := t.TempDir()
	w := startWatch(t, "--verbose", manifest(t, dir, watched))
	w.converged(5)
	conf := dir + "/srv/app/app.conf"
	if r := ccm(t, "pause", "--all", "--socket", w.socket); r.code != 0 {
		t.Fatalf("ccm pause --all: exit %d\n%s", r.code, r.stderr)
	}
	if rep := daemonStatus(t, w); rep.PausedAll == nil || rep.Counts.Paused != 5 {
		t.Fatalf("status after pause --all: %+v, counts %+v", rep.PausedAll, rep.Counts)
	}
	before := reloads(dir)
	if err := os.WriteFile(conf, []byte("port = 9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w.waitFor("the paused drift", func(ev engine.Event) bool { return ev.Name == conf && ev.Paused && ev.Changed })
	if r := ccm(t, "resume", "--all", "--socket", w.socket); r.code != 0 {
		t.Fatalf("ccm resume --all: exit %d\n%s", r.code, r.stderr)
	}
	w.waitFor("the repair on resume", func(ev engine.Event) bool {
		return ev.Name == conf && ev.Changed && ev.Trigger == engine.TriggerResume
	})
	enginetest.Eventually(t, "the held-back refresh after resume", func() bool { return reloads(dir) == before+1 })

	if r := ccm(t, "recheck", "file#"+conf, "--socket", w.socket); r.code != 0 {
		t.Fatalf("ccm recheck: exit %d\n%s", r.code, r.stderr)
	}
	w.waitFor("the re-check", func(ev engine.Event) bool { return ev.Name == conf && ev.Trigger == engine.TriggerRecheck })
	if r := ccm(t, "pause", "file#/nowhere", "--socket", w.socket); r.code != 2 || !strings.Contains(r.stderr, "no such resource") {
		t.Fatalf("pausing an unknown resource: exit %d\n%s", r.code, r.stderr)
	}
}

func TestEventsFollowStreamsTheRingThenLiveEvents(t *testing.T) {
	dir := t.TempDir()
	w := startWatch(t, manifest(t, dir, watched))
	w.converged(5)
	cmd := exec.Command(bin, "events", "--follow", "--json", "--socket", w.socket)
	stdout := startPiped(t, cmd, cmd.StdoutPipe, os.Kill)
	lines := make(chan engine.Event, 100)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			var ev engine.Event
			if json.Unmarshal(sc.Bytes(), &ev) == nil {
				lines <- ev
			}
		}
		close(lines)
	}()
	next := func(what string, keep func(engine.Event) bool) engine.Event {
		t.Helper()
		timeout := time.After(15 * time.Second)
		for {
			select {
			case ev, ok := <-lines:
				if !ok {
					t.Fatalf("the event stream ended before %s", what)
				}
				if keep(ev) {
					return ev
				}
			case <-timeout:
				t.Fatalf("timed out waiting for %s", what)
			}
		}
	}
	next("the startup events from the ring", func(ev engine.Event) bool { return ev.Trigger == engine.TriggerStartup })
	motd := dir + "/srv/app/motd"
	if err := os.Remove(motd); err != nil {
		t.Fatal(err)
	}
	ev := next("the live repair", func(ev engine.Event) bool { return ev.Name == motd && ev.Changed })
	if len(ev.Changes) != 1 || ev.Changes[0].String() != "absent → present" {
		t.Fatalf("changes = %v", ev.Changes)
	}
}

// asNobody runs the ccm binary as uid 65534 from a copy it can execute,
// with its own home.
func asNobody(t *testing.T, args ...string) result {
	t.Helper()
	dir := t.TempDir()
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	exe := filepath.Join(dir, "ccm")
	b, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exe, b, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	// Its own home: root's is not readable.
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+filepath.Join(dir, ".config"))
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{out.String(), errb.String(), code}
}

func TestTheControlSocketAnswersRootOnly(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to run a client as another user")
	}
	dir := t.TempDir()
	sockDir := filepath.Join(dir, "run")
	if err := os.Mkdir(sockDir, 0o700); err != nil {
		t.Fatal(err)
	}
	socket := filepath.Join(sockDir, "ccm.sock")
	w := startWatch(t, "--socket", socket, manifest(t, dir, watched))
	w.socket = socket
	w.converged(5)
	fi, err := os.Stat(socket)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("socket mode %v, %v; want 0600", fi.Mode(), err)
	}
	if r := asNobody(t, "status", "--socket", socket); r.code != 1 || !strings.Contains(r.stderr, "root-only") {
		t.Fatalf("nobody through the file permissions: exit %d\n%s", r.code, r.stderr)
	}
	// With the directory and the file opened up, the peer check still
	// refuses.
	if err := errors.Join(os.Chmod(sockDir, 0o755), os.Chmod(socket, 0o666)); err != nil {
		t.Fatal(err)
	}
	r := asNobody(t, "pause", "--all", "--socket", socket)
	if r.code != 1 || !strings.Contains(r.stderr, "permission denied") {
		t.Fatalf("nobody past the file permissions: exit %d\n%s", r.code, r.stderr)
	}
	if rep := daemonStatus(t, w); rep.PausedAll != nil {
		t.Fatal("a refused client paused the daemon")
	}
}

// TestPauseAndResumeRefuseBadRequestsBeforeAsking: a request that names
// nothing, or both resources and --all, is refused as unusable input
// (exit 2) without a daemon to ask.
func TestPauseAndResumeRefuseBadRequestsBeforeAsking(t *testing.T) {
	socket := filepath.Join(t.TempDir(), "none.sock")
	for _, args := range [][]string{{"pause"}, {"pause", "--all", "file#/a"}, {"pause", "--all", "--for", "-1s"}, {"resume"}, {"resume", "--all", "file#/a"}} {
		if r := ccm(t, append(args, "--socket", socket)...); r.code != 2 || !strings.Contains(r.stderr, "--all") {
			t.Errorf("ccm %v: exit %d, stderr %q; want exit 2 naming --all", args, r.code, r.stderr)
		}
	}
}
