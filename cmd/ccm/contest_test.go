package main_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/enginetest"
)

// fastContest shrinks the contest policy so fights are decided in
// seconds: contested after 3 repairs within 3s, backed off from 1s, calm
// after 3s alone.
var fastContest = []string{"--contest-limit", "3", "--contest-window", "3s", "--contest-backoff", "1s"}

var foughtFile = fileAt("@/fought.conf", "ours")

// writer rewrites path every interval until the test ends or stop is
// called.
func writer(t testing.TB, path string, every time.Duration) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				_ = os.WriteFile(path, []byte("theirs\n"), 0o644)
			}
		}
	})
	var once sync.Once
	stop = func() { once.Do(func() { close(done); wg.Wait() }) }
	t.Cleanup(stop)
	return stop
}

// shellLoop runs script in sh until the test ends and returns its pid.
func shellLoop(t *testing.T, script string) int {
	cmd := exec.Command("sh", "-c", script)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return cmd.Process.Pid
}

// contested waits for the event reporting path contested and returns how
// many repairs of path came before it, and the writer it names. As the
// engine does, it counts as repairs only changes once path has converged
// (converged says it already has): a run that found it drifted before
// then, the other writer striking during the first, is no repair.
func (w *watcher) contested(path string, converged bool) (repairs int, writer string) {
	w.t.Helper()
	ev := w.waitFor(path+" reported contested", func(ev engine.Event) bool {
		if ev.Name != path {
			return false
		}
		if converged && ev.Changed {
			repairs++
		}
		converged = converged || !ev.Failed
		return ev.Contested
	})
	return repairs, ev.Writer
}

// process matches the writer ccm names for a process: its pid and the
// beginning of its command line (long ones are shortened).
func process(pid int, command string) *regexp.Regexp {
	return regexp.MustCompile(fmt.Sprintf(`^pid %d \(%s.*\) uid 0$`, pid, regexp.QuoteMeta(command)))
}

// shortLived matches the writer ccm names for a process that runs
// command and exits at once: named when ccm read its change before it
// exited (by name alone while exiting), else by pid.
func shortLived(command, args string) *regexp.Regexp {
	return regexp.MustCompile(fmt.Sprintf(`^pid \d+ \((%s( %s)?\) uid 0|exited\))$`, command, regexp.QuoteMeta(args)))
}

func startFight(t *testing.T, manifestSrc string) (*watcher, string) {
	t.Helper()
	dir := t.TempDir()
	w := startWatch(t, append(fastContest, manifest(t, dir, manifestSrc))...)
	w.waitFor("the first convergence", func(ev engine.Event) bool { return ev.Trigger == engine.TriggerStartup })
	return w, dir
}

func TestFightsAreContested(t *testing.T) {
	for _, tc := range []struct {
		name string
		// fight starts the other writer and says how ccm names it.
		fight func(t *testing.T, path string) *regexp.Regexp
	}{
		{"slow writer", func(t *testing.T, path string) *regexp.Regexp {
			writer(t, path, 300*time.Millisecond)
			return process(os.Getpid(), os.Args[0])
		}},
		{"tight writer", func(t *testing.T, path string) *regexp.Regexp {
			pid := shellLoop(t, "while :; do echo theirs > "+path+"; sleep 0.005; done")
			return process(pid, "sh -c while :; do echo theirs > ")
		}},
		{"chmod loop", func(t *testing.T, path string) *regexp.Regexp {
			shellLoop(t, "while :; do chmod 600 "+path+"; sleep 0.005; done")
			return shortLived("chmod", "600 "+path)
		}},
		{"sed -i loop", func(t *testing.T, path string) *regexp.Regexp {
			shellLoop(t, "while :; do sed -i s/ours/theirs/ "+path+"; sleep 0.005; done")
			return shortLived("sed", "-i s/ours/theirs/ "+path)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, dir := startFight(t, foughtFile)
			path := filepath.Join(dir, "fought.conf")
			want := tc.fight(t, path)
			n, writer := w.contested(path, true)
			if n > 3+1 {
				t.Errorf("%d repairs before the contest was reported, want at most 4", n)
			}
			if !want.MatchString(writer) {
				t.Errorf("the contest names the writer %q, want %s", writer, want)
			}
			t.Logf("writer: %s", writer)
			enginetest.Eventually(t, "the contest logged", func() bool { return strings.Contains(w.logs(), "contested: repaired too often") })
			if got := strings.Count(w.logs(), "contested: repaired too often"); got != 1 {
				t.Errorf("the contest was logged %d times, want once:\n%s", got, w.logs())
			}
			if !strings.Contains(w.logs(), strconv.Quote(writer)) {
				t.Errorf("the contest warning does not name the writer %q:\n%s", writer, w.logs())
			}
		})
	}
}

func TestTwoDaemonsOnOneFileBothBackOff(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "fought.conf")
	one := filepath.Join(dir, "one.yaml")
	writeManifest(t, one, dir, foughtFile)
	two := filepath.Join(dir, "two.yaml")
	writeManifest(t, two, dir, fileAt("@/fought.conf", "theirs"))
	// A window and gap far longer than the fight takes: under load repairs
	// come slower, and neither the first may slide out of the window nor a
	// slow reply start the count afresh before the limit.
	wide := []string{"--contest-limit", "3", "--contest-window", "1m", "--contest-gap", "1m", "--contest-backoff", "1s"}
	a := startWatch(t, append(wide, "--state-dir", t.TempDir(), one)...)
	b := startWatch(t, append(wide, "--state-dir", t.TempDir(), two)...)
	for _, d := range []struct {
		name     string
		w, other *watcher
	}{{"first", a, b}, {"second", b, a}} {
		n, writer := d.w.contested(path, false)
		if n > 3+1 {
			t.Errorf("the %s daemon repaired %d times before reporting the contest", d.name, n)
		}
		// Each names the other: its own writes are not counted.
		if want := process(d.other.cmd.Process.Pid, bin+" run --watch"); !want.MatchString(writer) {
			t.Errorf("the %s daemon names the writer %q, want %s", d.name, writer, want)
		}
		if r := ccm(t, "status", "--socket", d.w.socket); !strings.Contains(r.stdout, "changed by "+writer) {
			t.Errorf("the %s daemon's status does not name the writer %q:\n%s%s", d.name, writer, r.stdout, r.stderr)
		}
	}
}

// chained is a fought config file with a refreshonly exec subscribed to it
// and a second one subscribed to the first.
var chained = foughtFile + `
- exec:
    - reload:
        command: /bin/sh -c "echo x >> @/reloads"
        refreshonly: true
        subscribe: [file#@/fought.conf]
    - notify:
        command: /bin/sh -c "echo x >> @/notified"
        refreshonly: true
        subscribe: [exec#reload]
`

func count(path string) int {
	b, _ := os.ReadFile(path)
	return strings.Count(string(b), "x")
}

func TestRefreshesOfAContestedFileWaitForCalm(t *testing.T) {
	w, dir := startFight(t, chained)
	path := filepath.Join(dir, "fought.conf")
	stop := writer(t, path, 300*time.Millisecond)
	w.contested(path, true)
	atContest := count(filepath.Join(dir, "reloads"))
	// Two more back-off steps of fighting: refreshes are held.
	for range 2 {
		w.waitFor("a repair while contested", func(ev engine.Event) bool { return ev.Name == path && ev.Changed })
	}
	if got := count(filepath.Join(dir, "reloads")); got != atContest {
		t.Fatalf("the exec ran %d times while its file was contested", got-atContest)
	}
	stop()
	w.waitFor("the held refresh released once calm", func(ev engine.Event) bool { return ev.Name == "reload" && ev.Refreshed })
	w.waitFor("the chain going on", func(ev engine.Event) bool { return ev.Name == "notify" && ev.Refreshed })
	if !strings.Contains(w.logs(), "no longer contested") {
		t.Fatalf("calm not logged:\n%s", w.logs())
	}
	// At most: the first convergence, one per repair before the contest,
	// and the held one.
	if got := count(filepath.Join(dir, "reloads")); got != atContest+1 || got > 1+3+1 {
		t.Fatalf("the exec ran %d times in all (%d by the contest), want %d", got, atContest, atContest+1)
	}
	if got, want := count(filepath.Join(dir, "notified")), count(filepath.Join(dir, "reloads")); got != want {
		t.Fatalf("the chained exec ran %d times, want %d", got, want)
	}
}

// pushed is a manifest whose revision is @REV: a file with the revision
// inline, a file copied from a source file, and a refreshonly exec
// subscribed to each.
const pushed = `
- file:
    - @/inline.conf:
        ensure: present
        content: "revision @REV\n"
        owner: root
        group: root
        mode: "0644"
    - @/sourced.conf:
        ensure: present
        source: @/src.conf
        owner: root
        group: root
        mode: "0644"
- exec:
    - restart-inline:
        command: /bin/sh -c "echo x >> @/restarts-inline"
        refreshonly: true
        subscribe: [file#@/inline.conf]
    - restart-sourced:
        command: /bin/sh -c "echo x >> @/restarts-sourced"
        refreshonly: true
        subscribe: [file#@/sourced.conf]
`

// push makes revision rev the desired state, as an operator or a bundle
// revision does: the source file, then the manifest, each replaced whole.
func push(t *testing.T, dir string, rev int) {
	t.Helper()
	replace := func(name, content string) {
		tmp := filepath.Join(dir, "."+name)
		if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	replace("src.conf", fmt.Sprintf("source %d\n", rev))
	replace("manifest.yaml", strings.ReplaceAll(strings.ReplaceAll(pushed, "@REV", strconv.Itoa(rev)), "@", dir))
}

// TestNewDesiredStatesAreNeverContested: ten new desired states within a
// minute, through a manifest reload and a changed source file, are each
// applied at once and restart the subscribed execs each time; none is
// counted as a repair, so nothing is contested even when every repair in
// the window counts.
func TestNewDesiredStatesAreNeverContested(t *testing.T) {
	dir := t.TempDir()
	push(t, dir, 0)
	w := startWatch(t, "--contest-limit", "3", "--contest-window", "1m", "--contest-gap", "1m", filepath.Join(dir, "manifest.yaml"))
	w.converged(4)
	for rev := 1; rev <= 10; rev++ {
		push(t, dir, rev)
		applied := map[string]bool{}
		w.waitFor(fmt.Sprintf("revision %d applied and both execs restarted", rev), func(ev engine.Event) bool {
			if ev.Contested {
				t.Fatalf("revision %d: %s reported contested: %+v", rev, ev.Name, ev)
			}
			if ev.Changed && !ev.Failed {
				applied[ev.Name] = true
			}
			return len(applied) == 4
		})
		if got, want := read(t, filepath.Join(dir, "inline.conf")), fmt.Sprintf("revision %d\n", rev); got != want {
			t.Fatalf("inline.conf holds %q, want %q", got, want)
		}
		if got, want := read(t, filepath.Join(dir, "sourced.conf")), fmt.Sprintf("source %d\n", rev); got != want {
			t.Fatalf("sourced.conf holds %q, want %q", got, want)
		}
		for _, exec := range []string{"restarts-inline", "restarts-sourced"} {
			if got := count(filepath.Join(dir, exec)); got != rev+1 {
				t.Fatalf("revision %d: %s ran %d times, want %d: once at start and once per revision", rev, exec, got, rev+1)
			}
		}
	}
	if strings.Contains(w.logs(), "contested: repaired too often") {
		t.Fatalf("a contest was logged:\n%s", w.logs())
	}
}
