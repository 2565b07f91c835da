package main_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/cmd/ccm/internal/ccmbuild"
	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
)

// bin is the ccm binary built once for the end-to-end tests.
var bin string

var binFlag = flag.String("bin", "", "run this ccm binary instead of the one built from ./cmd/ccm (paired benchmark runs of two commits)")

func TestMain(m *testing.M) {
	if resourcetest.Attacking() {
		// This process is an attacker an attack test started as uid 65534.
		os.Exit(resourcetest.Main(m))
	}
	if addr := os.Getenv(impostorEnv); addr != "" {
		// This process is the NATS server a local user runs.
		os.Exit(runImpostor(addr, os.Getenv(impostorStoreEnv), os.Getenv(impostorBundleEnv)))
	}
	if lib := os.Getenv(watcherEnv); lib != "" {
		// This process is a watcher BenchmarkWatcherLibrary started.
		os.Exit(runWatcher(lib, strings.Split(os.Getenv(watcherPathsEnv), ":")))
	}
	// A copy of this binary started by resourcetest.AsNobody runs its
	// attack step instead.
	os.Exit(resourcetest.Main(e2e{m}))
}

// e2e runs the tests with the ccm binary built.
type e2e struct{ m *testing.M }

func (e e2e) Run() int {
	flag.Parse()
	var err error
	bin, err = ccmbuild.Build("ccm-e2e-", raceEnabled)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	dir := filepath.Dir(bin)
	defer os.RemoveAll(dir)
	if *binFlag != "" {
		bin = *binFlag
	}
	// No test may use the host's /var/lib/ccm; tests that look at the
	// state directory pass their own --state-dir.
	if err := os.Setenv("CCM_STATE_DIR", filepath.Join(dir, "state")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return e.m.Run()
}

// result is what one ccm invocation printed and returned.
type result struct {
	stdout, stderr string
	code           int
}

// ccm runs the binary to completion.
func ccm(t *testing.T, args ...string) result {
	t.Helper()
	return ccmIn(t, "", nil, "", args...)
}

// manifest writes a manifest into dir, replacing @ with dir.
func manifest(t testing.TB, dir, src string) string {
	t.Helper()
	f := filepath.Join(dir, "manifest.yaml")
	writeManifest(t, f, dir, src)
	return f
}

// fileAt is a manifest of one file at path (@ stands for the test's
// directory), root's with mode 0644, holding content and a newline.
func fileAt(path, content string) string {
	return `
- file:
    - ` + path + `:
        ensure: present
        content: "` + content + `\n"
        owner: root
        group: root
        mode: "0644"
`
}

// me returns the names of the user and group the tests run as, for the
// files their manifests make.
func me(t *testing.T) (owner, group string) {
	t.Helper()
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	g, err := user.LookupGroupId(strconv.Itoa(os.Getgid()))
	if err != nil {
		t.Fatal(err)
	}
	return u.Username, g.Name
}

func writeManifest(t testing.TB, f, dir, src string) {
	t.Helper()
	if err := os.WriteFile(f, []byte(strings.ReplaceAll(src, "@", dir)), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// watcher is a running `ccm run --watch --json`.
type watcher struct {
	t      *testing.T
	cmd    *exec.Cmd
	events chan engine.Event
	stderr *bytes.Buffer
	// exited is closed once the process was waited for; waitErr is
	// Wait's result, readable after that.
	exited  chan struct{}
	waitErr error
	seen    []string
	// socket is the daemon's control socket.
	socket string
}

func startWatch(t *testing.T, args ...string) *watcher {
	t.Helper()
	return startCmd(t, exec.Command(bin, append([]string{"run", "--watch", "--json"}, args...)...))
}

// startCmd starts a command that runs ccm in watch mode with --json, its
// control socket in a temporary directory (watcher.socket).
func startCmd(t *testing.T, cmd *exec.Cmd) *watcher {
	t.Helper()
	socket := socketPath(t)
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, "CCM_SOCKET="+socket)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	w := &watcher{t: t, cmd: cmd, events: make(chan engine.Event, 10000), stderr: &bytes.Buffer{}, exited: make(chan struct{}), socket: socket}
	cmd.Stderr = syncWriter{w.stderr}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			var ev engine.Event
			if json.Unmarshal(sc.Bytes(), &ev) == nil && ev.Protocol == engine.EventProtocol {
				w.events <- ev
			}
		}
		w.waitErr = cmd.Wait()
		close(w.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-w.exited:
		default:
			w.stop()
		}
	})
	return w
}

// startPiped starts cmd and returns what it writes to the pipe pipe
// makes (cmd.StdoutPipe or cmd.StderrPipe). When the test ends cmd gets
// stop (SIGTERM to let a ccm shut down, os.Kill for the rest) and is
// waited for.
func startPiped(tb testing.TB, cmd *exec.Cmd, pipe func() (io.ReadCloser, error), stop os.Signal) io.Reader {
	tb.Helper()
	out, err := pipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		_ = cmd.Process.Signal(stop)
		_ = cmd.Wait()
	})
	return out
}

// socketPath returns a control socket's path in a new private directory,
// as the daemon requires (t.TempDir's are 0755).
func socketPath(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	if err := os.Chmod(dir, 0o700); err != nil {
		tb.Fatal(err)
	}
	return filepath.Join(dir, "ccm.sock")
}

type syncWriter struct{ b *bytes.Buffer }

var stderrMu = make(chan struct{}, 1)

func (s syncWriter) Write(p []byte) (int, error) {
	stderrMu <- struct{}{}
	defer func() { <-stderrMu }()
	return s.b.Write(p)
}

func (w *watcher) logs() string {
	stderrMu <- struct{}{}
	defer func() { <-stderrMu }()
	return w.stderr.String()
}

// stop sends SIGTERM and requires a clean exit within 5 s.
func (w *watcher) stop() {
	w.t.Helper()
	if err := w.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		w.t.Fatalf("SIGTERM: %v", err)
	}
	select {
	case <-w.exited:
		if w.waitErr != nil {
			w.t.Fatalf("ccm exited with %v after SIGTERM\n%s", w.waitErr, w.logs())
		}
	case <-time.After(5 * time.Second):
		_ = w.cmd.Process.Kill()
		w.t.Fatalf("ccm did not exit within 5s of SIGTERM\n%s", w.logs())
	}
}

// waitFor waits for an event matching keep.
func (w *watcher) waitFor(what string, keep func(engine.Event) bool) engine.Event {
	w.t.Helper()
	deadline := time.After(15 * time.Second)
	for {
		select {
		case ev := <-w.events:
			w.seen = append(w.seen, ev.ID()+" "+string(ev.Trigger))
			if keep(ev) {
				return ev
			}
		case <-deadline:
			w.t.Logf("events seen: %v", w.seen)
			w.t.Fatalf("timed out waiting for %s\nlogs:\n%s", what, w.logs())
		}
	}
}

// converged waits until n resources reported their startup event.
func (w *watcher) converged(n int) {
	w.t.Helper()
	for i := 0; i < n; i++ {
		w.waitFor("startup convergence", func(ev engine.Event) bool { return ev.Trigger == engine.TriggerStartup })
	}
}
