package daemon_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon"
	"github.com/reactive-ccm/ccm/engine/daemon/control"
	"github.com/reactive-ccm/ccm/engine/daemon/inputs"
	"github.com/reactive-ccm/ccm/engine/daemon/reload"
	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/graph/facts"
	_ "github.com/reactive-ccm/ccm/resources/all"
)

// wait bounds every wait on the daemon: a failure, never a pace.
const wait = time.Minute

// run is a daemon assembled from a manifest of one file in a temporary
// directory, as `ccm run --watch` assembles it.
type run struct {
	t        *testing.T
	dir      string
	manifest string
	socket   string
	signals  chan os.Signal
	forgot   chan struct{}
	// settled hears each time the engine settles.
	settled chan engine.State
	cancel  context.CancelFunc
	done    chan result
}

type result struct {
	s   daemon.Session
	err error
}

// manifest is a manifest of the file out under dir holding content.
func manifest(dir, content string) string {
	return fmt.Sprintf("- file:\n    - %s: {ensure: present, owner: root, group: root, mode: \"0644\", content: %q}\n",
		filepath.Join(dir, "out"), content)
}

// put replaces path with src atomically, as editors do.
func put(t *testing.T, path, src string) {
	t.Helper()
	if err := os.WriteFile(path+".new", []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".new", path); err != nil {
		t.Fatal(err)
	}
}

// config is the daemon's Config, loading r's manifest with d's data.
func (r *run) config(d inputs.Data) daemon.Config {
	load := func(ctx context.Context) (*graph.Graph, reload.Inputs, error) {
		g, err := graph.Load([]string{r.manifest}, graph.LazyOptions(func() (graph.Data, error) { return d.Load(ctx) }))
		if err != nil {
			return nil, reload.Inputs{}, err
		}
		return g, d.Inputs([]string{r.manifest}, g), nil
	}
	g, in, err := load(r.t.Context())
	if err != nil {
		r.t.Fatal(err)
	}
	return daemon.Config{Graph: g, Inputs: in, Load: load, Version: "test-1", PollInterval: 10 * time.Second,
		Socket: r.socket, SocketRequired: true, Signals: r.signals, Forget: func() { r.forgot <- struct{}{} },
		Engine: engine.Options{Events: func(*engine.Event) {}, Logger: slog.New(slog.DiscardHandler),
			OnSettled: func(st engine.State) {
				select {
				case r.settled <- st:
				default:
				}
			}}}
}

// newRun writes a manifest of out holding "one" under a new directory.
func newRun(t *testing.T) *run {
	dir := t.TempDir()
	// The control socket wants a directory of its own.
	if err := os.Mkdir(filepath.Join(dir, "run"), 0o700); err != nil {
		t.Fatal(err)
	}
	r := &run{t: t, dir: dir, manifest: filepath.Join(dir, "manifest.yaml"), socket: filepath.Join(dir, "run", "ccm.sock"),
		signals: make(chan os.Signal, 1), forgot: make(chan struct{}, 1), settled: make(chan engine.State, 1), done: make(chan result, 1)}
	put(t, r.manifest, manifest(dir, "one\n"))
	return r
}

// start runs the daemon c until the test ends or stop is called.
func (r *run) start(c daemon.Config) {
	ctx, cancel := context.WithCancel(r.t.Context())
	r.cancel = cancel
	go func() {
		s, err := daemon.Run(ctx, c)
		r.done <- result{s, err}
	}()
	r.t.Cleanup(func() {
		if r.cancel != nil {
			r.stop()
		}
	})
}

// stop ends the daemon and returns what Run returned.
func (r *run) stop() result {
	r.t.Helper()
	r.cancel()
	r.cancel = nil
	select {
	case res := <-r.done:
		return res
	case <-time.After(wait):
		r.t.Fatal("the daemon did not stop")
		return result{}
	}
}

// until waits, settling after settling, until cond holds.
func (r *run) until(what string, cond func() bool) {
	r.t.Helper()
	timeout := time.After(wait)
	for !cond() {
		select {
		case <-r.settled:
		case res := <-r.done:
			r.done <- res
			r.t.Fatalf("the daemon stopped waiting for %s: %v", what, res.err)
		case <-timeout:
			r.t.Fatalf("no %s", what)
		}
	}
}

// holds reports whether out holds content.
func (r *run) holds(content string) func() bool {
	return func() bool {
		b, err := os.ReadFile(filepath.Join(r.dir, "out"))
		return err == nil && string(b) == content
	}
}

func (r *run) status() (int, error) {
	rep, err := control.NewClient(r.socket).Status(r.t.Context())
	return rep.Daemon.Reloads, err
}

// factsOff leaves out the host's facts overlay directories.
func factsOff() facts.Options { return facts.Options{Dirs: []string{}} }

func TestRunConvergesRepairsReloadsAndStops(t *testing.T) {
	r := newRun(t)
	r.start(r.config(inputs.Data{Facts: factsOff()}))
	r.until("convergence", r.holds("one\n"))

	rep, err := control.NewClient(r.socket).Status(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Daemon.Version != "test-1" || rep.Daemon.PID != os.Getpid() || len(rep.Resources) != 1 || rep.Resources[0].ID != "file#"+filepath.Join(r.dir, "out") {
		t.Fatalf("status: %+v", rep)
	}

	// A drift is repaired: the hubs watch the file.
	if err := os.WriteFile(filepath.Join(r.dir, "out"), []byte("tampered\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.until("repair", r.holds("one\n"))

	// An edit of the manifest is reloaded and converged.
	put(t, r.manifest, manifest(r.dir, "two\n"))
	r.until("reload", r.holds("two\n"))
	if reloads, err := r.status(); err != nil || reloads != 1 {
		t.Fatalf("status after the edit: %d reloads, %v; want 1", reloads, err)
	}

	// SIGHUP gathers the facts again.
	r.signals <- syscall.SIGHUP
	select {
	case <-r.forgot:
	case <-time.After(wait):
		t.Fatal("SIGHUP did not forget the facts")
	}

	res := r.stop()
	if res.err != nil || res.s.Reloads < 1 || res.s.State.Resources != 1 || res.s.State.Converged != 1 {
		t.Fatalf("session: %+v, %v", res.s, res.err)
	}
	if _, err := os.Lstat(r.socket); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the control socket is left behind: %v", err)
	}
	if _, err := r.status(); !errors.Is(err, control.ErrNoDaemon) {
		t.Fatalf("status of a stopped daemon: %v, want %v", err, control.ErrNoDaemon)
	}
}

// A data file the manifest's templates read is watched: its edit reloads.
func TestRunReloadsOnDataEdit(t *testing.T) {
	r := newRun(t)
	data := filepath.Join(r.dir, "data.yaml")
	put(t, data, "data:\n  word: one\n")
	put(t, r.manifest, "- file:\n    - "+filepath.Join(r.dir, "out")+":\n        {ensure: present, owner: root, group: root, mode: \"0644\", content: \"${ Data.word }\"}\n")
	r.start(r.config(inputs.Data{Hiera: []string{data}, Facts: factsOff()}))
	r.until("convergence", r.holds("one"))
	put(t, data, "data:\n  word: two\n")
	r.until("reload on the data's edit", r.holds("two"))
}

// A file a content template reads by name is watched: its edit is a new
// desired state, written at once rather than at the next re-check.
func TestRunRewritesWhatAReadFileReadsOnItsEdit(t *testing.T) {
	r := newRun(t)
	src := filepath.Join(r.dir, "motd.txt")
	put(t, src, "one\n")
	put(t, r.manifest, manifest(r.dir, "{{ readFile('motd.txt') }}"))
	r.start(r.config(inputs.Data{Facts: factsOff()}))
	r.until("convergence", r.holds("one\n"))
	put(t, src, "two\n")
	r.until("rewrite after an edit of what readFile reads", r.holds("two\n"))
	if reloads, err := r.status(); err != nil || reloads != 0 {
		t.Fatalf("status after the edit: %d reloads, %v; want none: it is the resource's input", reloads, err)
	}
}

func TestRunRefusesUnusableInput(t *testing.T) {
	for name, set := range map[string]func(*daemon.Config, string){
		"socket":  func(c *daemon.Config, dir string) { c.Socket = filepath.Join(dir, "manifest.yaml", "ccm.sock") },
		"metrics": func(c *daemon.Config, _ string) { c.Metrics = "256.0.0.1:x" },
	} {
		t.Run(name, func(t *testing.T) {
			r := newRun(t)
			c := r.config(inputs.Data{Facts: factsOff()})
			set(&c, r.dir)
			// A daemon that starts anyway stops once it settled.
			ctx, cancel := context.WithCancel(t.Context())
			c.Engine.OnSettled = func(engine.State) { cancel() }
			_, err := daemon.Run(ctx, c)
			var bad *daemon.BadInput
			if !errors.As(err, &bad) {
				t.Fatalf("Run: %v, want BadInput", err)
			}
			if _, err := os.Stat(filepath.Join(r.dir, "out")); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("a daemon refused changed the host: %v", err)
			}
		})
	}
}

// A socket not required that cannot be opened is no reason to stop.
func TestRunWithoutItsSocket(t *testing.T) {
	r := newRun(t)
	c := r.config(inputs.Data{Facts: factsOff()})
	c.Socket, c.SocketRequired = filepath.Join(r.dir, "manifest.yaml", "ccm.sock"), false
	r.start(c)
	r.until("convergence", r.holds("one\n"))
	if res := r.stop(); res.err != nil {
		t.Fatal(res.err)
	}
}

// freeAddr is a loopback address no one listens on now.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// The metrics endpoint counts the daemon's resources and says its
// version; the control socket replays its events; SIGUSR1 re-checks.
func TestRunServesMetricsEventsAndRechecks(t *testing.T) {
	r := newRun(t)
	c := r.config(inputs.Data{Facts: factsOff()})
	c.Metrics, c.MetricsPerResource = freeAddr(t), true
	c.Engine.Verbose = true
	checks := make(chan *engine.Event, 16)
	c.Engine.Events = func(ev *engine.Event) { checks <- ev }
	r.start(c)
	r.until("convergence", r.holds("one\n"))

	resp, err := http.Get("http://" + c.Metrics + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	id := "file#" + filepath.Join(r.dir, "out")
	for _, want := range []string{`ccm_resources{standing="converged"} 1`, `version="test-1"`, `ccm_resource_standing{resource="` + id + `",standing="converged"} 1`} {
		if !strings.Contains(string(body), want) {
			t.Errorf("the metrics lack %s:\n%s", want, body)
		}
	}

	var replayed []string
	if err := control.NewClient(r.socket).Events(t.Context(), false, func(ev *engine.Event) error {
		replayed = append(replayed, ev.ID())
		return nil
	}); err != nil || len(replayed) == 0 || replayed[0] != id {
		t.Fatalf("events replayed: %v, %v; want %s's", replayed, err, id)
	}

	for len(checks) > 0 {
		<-checks
	}
	r.signals <- syscall.SIGUSR1
	select {
	case ev := <-checks:
		if ev.ID() != id || ev.Changed {
			t.Fatalf("after SIGUSR1: %+v, want a check of %s finding nothing", ev, id)
		}
	case <-time.After(wait):
		t.Fatal("SIGUSR1 re-checked nothing")
	}
}

// A manifest edit that does not compile leaves the running graph in force
// and counts a failed reload; the next good edit is loaded.
func TestRunKeepsItsGraphThroughABadEdit(t *testing.T) {
	r := newRun(t)
	c := r.config(inputs.Data{Facts: factsOff()})
	loads := make(chan error, 4)
	load := c.Load
	c.Load = func(ctx context.Context) (*graph.Graph, reload.Inputs, error) {
		g, in, err := load(ctx)
		loads <- err
		return g, in, err
	}
	r.start(c)
	r.until("convergence", r.holds("one\n"))
	put(t, r.manifest, "- file: {bad\n")
	select {
	case err := <-loads:
		if err == nil {
			t.Fatal("a manifest that does not compile loaded")
		}
	case <-time.After(wait):
		t.Fatal("the bad edit was not loaded")
	}
	put(t, r.manifest, manifest(r.dir, "three\n"))
	r.until("reload after the fix", r.holds("three\n"))
	rep, err := control.NewClient(r.socket).Status(t.Context())
	if err != nil || rep.Daemon.Reloads != 2 || rep.Daemon.ReloadFailures != 1 {
		t.Fatalf("status: %+v, %v; want 2 reloads, 1 failed", rep.Daemon, err)
	}
}
