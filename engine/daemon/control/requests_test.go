package control_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/control"
	"github.com/reactive-ccm/ccm/engine/daemon/status"
)

// recorder is a Controller that records what it was asked, and refuses
// every reference to "file#/missing" as the engine does one it lacks.
type recorder struct {
	mu    sync.Mutex
	calls []string
	pause status.Pause
}

// call records a call, with the pause it asks for when it is one.
func (r *recorder) call(p *status.Pause, format string, args ...any) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if p != nil {
		r.pause = *p
	}
	c := fmt.Sprintf(format, args...)
	r.calls = append(r.calls, c)
	if strings.Contains(c, "file#/missing") {
		return fmt.Errorf("%w: file#/missing", engine.ErrUnknownResource)
	}
	if strings.Contains(c, "file#/broken") {
		return errors.New("the engine stopped")
	}
	return nil
}

func (r *recorder) Status() status.Report                     { return status.Report{} }
func (r *recorder) Pause(refs []string, p status.Pause) error { return r.call(&p, "pause %v", refs) }
func (r *recorder) PauseAll(p status.Pause)                   { _ = r.call(&p, "pause all") }
func (r *recorder) Resume(refs []string) error                { return r.call(nil, "resume %v", refs) }
func (r *recorder) ResumeAll()                                { _ = r.call(nil, "resume all") }
func (r *recorder) Recheck()                                  { _ = r.call(nil, "recheck all") }
func (r *recorder) RecheckResource(ref string) error          { return r.call(nil, "recheck %s", ref) }

// taken returns the calls recorded since the last taken, and the last
// pause asked for.
func (r *recorder) taken() ([]string, status.Pause) {
	r.mu.Lock()
	defer r.mu.Unlock()
	calls := r.calls
	r.calls = nil
	return calls, r.pause
}

// serveAt serves ctl at path until the test ends, and returns the
// server.
func serveAt(t *testing.T, path string, ctl control.Controller) *control.Server {
	t.Helper()
	srv, err := control.Listen(path, ctl, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error)
	go func() { done <- srv.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	return srv
}

// serveWith serves ctl on a socket in a new directory until the test
// ends, and returns the socket's path and the server.
func serveWith(t *testing.T, ctl control.Controller) (string, *control.Server) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run", "ccm.sock")
	return path, serveAt(t, path, ctl)
}

// TestRequestsReachTheController: each request calls the controller
// once, as asked; a reference the engine lacks is the daemon's error,
// said to the client.
func TestRequestsReachTheController(t *testing.T) {
	ctl := &recorder{}
	path, _ := serveWith(t, ctl)
	c := control.NewClient(path)
	ctx := t.Context()
	for _, tc := range []struct {
		name string
		do   func() error
		call string
		err  string
	}{
		{"pause some", func() error {
			_, err := c.Pause(ctx, control.PauseRequest{Resources: []string{"file#/a", "exec#b"}})
			return err
		}, "pause [file#/a exec#b]", ""},
		{"pause all", func() error { _, err := c.Pause(ctx, control.PauseRequest{All: true}); return err }, "pause all", ""},
		{"pause one missing", func() error {
			_, err := c.Pause(ctx, control.PauseRequest{Resources: []string{"file#/missing"}})
			return err
		},
			"pause [file#/missing]", "control: engine: no such resource: file#/missing"},
		{"resume some", func() error { return c.Resume(ctx, control.ResumeRequest{Resources: []string{"file#/a"}}) }, "resume [file#/a]", ""},
		{"resume all", func() error { return c.Resume(ctx, control.ResumeRequest{All: true}) }, "resume all", ""},
		{"resume one the engine fails on", func() error { return c.Resume(ctx, control.ResumeRequest{Resources: []string{"file#/broken"}}) },
			"resume [file#/broken]", "control: the engine stopped"},
		{"recheck all", func() error { return c.Recheck(ctx, control.RecheckRequest{}) }, "recheck all", ""},
		{"recheck one", func() error { return c.Recheck(ctx, control.RecheckRequest{Resource: "file#/a"}) }, "recheck file#/a", ""},
		{"recheck one missing", func() error { return c.Recheck(ctx, control.RecheckRequest{Resource: "file#/missing"}) },
			"recheck file#/missing", "no such resource"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.do()
			got := ""
			if err != nil {
				got = err.Error()
			}
			if (tc.err == "") != (err == nil) || !strings.Contains(got, tc.err) || (err != nil && !errors.Is(err, control.ErrRequest)) {
				t.Fatalf("error %v, want %q", err, tc.err)
			}
			if calls, _ := ctl.taken(); len(calls) != 1 || calls[0] != tc.call {
				t.Fatalf("calls %q, want %q", calls, tc.call)
			}
		})
	}
}

// TestPauseRecordsWhoAndUntil: a pause names the client's user, and the
// user it came from through sudo; one for a while ends then.
func TestPauseRecordsWhoAndUntil(t *testing.T) {
	ctl := &recorder{}
	path, _ := serveWith(t, ctl)
	me, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		req   control.PauseRequest
		by    string
		lasts bool
	}{
		{"until resumed", control.PauseRequest{All: true}, me.Username, false},
		{"through sudo, for a while", control.PauseRequest{All: true, SudoUser: "alice", For: time.Hour}, me.Username + " (sudo alice)", true},
		{"sudo to oneself says nothing more", control.PauseRequest{All: true, SudoUser: me.Username}, me.Username, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := time.Now()
			p, err := control.NewClient(path).Pause(t.Context(), tc.req)
			if err != nil {
				t.Fatal(err)
			}
			_, recorded := ctl.taken()
			if p.By != tc.by || p.Since.Before(before.Add(-time.Second)) || p.Until.IsZero() == tc.lasts ||
				(tc.lasts && !p.Until.Equal(p.Since.Add(tc.req.For))) || p.By != recorded.By {
				t.Fatalf("pause %+v (the controller's %+v), want by %q, lasting %t", p, recorded, tc.by, tc.lasts)
			}
		})
	}
}

// rawClient speaks HTTP on the socket without control.Client's checks.
func rawClient(path string) *http.Client {
	return &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", path)
	}}}
}

// TestBadRequestsAreRefused: what control.Client never sends is refused
// with a 400 or 404 and changes nothing.
func TestBadRequestsAreRefused(t *testing.T) {
	ctl := &recorder{}
	path, _ := serveWith(t, ctl)
	for _, tc := range []struct {
		name, method, url, body string
		code                    int
	}{
		{"an unknown field", "POST", "/v1/pause", `{"all": true, "forever": true}`, http.StatusBadRequest},
		{"not JSON", "POST", "/v1/resume", `all`, http.StatusBadRequest},
		{"a pause of all and of named resources", "POST", "/v1/pause", `{"all": true, "resources": ["file#/a"]}`, http.StatusBadRequest},
		{"a pause for a negative duration", "POST", "/v1/pause", `{"all": true, "for": -1}`, http.StatusBadRequest},
		{"a resume of nothing", "POST", "/v1/resume", `{}`, http.StatusBadRequest},
		{"a body too large", "POST", "/v1/recheck", `{"resource": "` + strings.Repeat("x", 70<<10) + `"}`, http.StatusBadRequest},
		{"a pause by GET", "GET", "/v1/pause", ``, http.StatusMethodNotAllowed},
		{"an unknown path", "GET", "/v2/status", ``, http.StatusNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequestWithContext(t.Context(), tc.method, "http://ccm"+tc.url, strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := rawClient(path).Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if calls, _ := ctl.taken(); resp.StatusCode != tc.code || len(calls) != 0 {
				t.Fatalf("status %d, calls %q; want %d and none", resp.StatusCode, calls, tc.code)
			}
		})
	}
}

// staleSocket leaves a socket at path that nothing listens on, as a
// daemon that died does, and returns path.
func staleSocket(t *testing.T, path string) string {
	t.Helper()
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close()
	return path
}

// TestClientErrorsSayWhatToDo: a client that reaches no daemon says so,
// and where to look.
func TestClientErrorsSayWhatToDo(t *testing.T) {
	dir := t.TempDir()
	stale := staleSocket(t, filepath.Join(dir, "stale.sock"))
	for _, tc := range []struct{ name, path, want string }{
		{"no socket", filepath.Join(dir, "none.sock"), "control: no ccm daemon answers at " + filepath.Join(dir, "none.sock") + ": is `ccm run --watch` running?"},
		{"a socket nobody listens on", stale, "control: no ccm daemon answers at " + stale + ": is `ccm run --watch` running?"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := control.NewClient(tc.path).Status(t.Context())
			if !errors.Is(err, control.ErrNoDaemon) || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// TestListenOverWhatIsThere: a stale socket is replaced, a live daemon's
// is not taken over, and anything but a socket is left alone.
func TestListenOverWhatIsThere(t *testing.T) {
	path, _ := serveWith(t, &recorder{})
	if _, err := control.Listen(path, &recorder{}, slog.New(slog.DiscardHandler)); !errors.Is(err, control.ErrInUse) {
		t.Fatalf("a second daemon on a live socket: %v", err)
	}
	dir := filepath.Join(t.TempDir(), "run")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "ccm.sock")
	if err := os.WriteFile(file, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := control.Listen(file, &recorder{}, slog.New(slog.DiscardHandler)); err == nil || !strings.Contains(err.Error(), "something other than a socket is there") {
		t.Fatalf("over a file: %v", err)
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != "keep" {
		t.Fatalf("the file was touched: %q, %v", b, err)
	}
	stale := staleSocket(t, filepath.Join(dir, "stale.sock"))
	serveAt(t, stale, &recorder{})
	if _, err := control.NewClient(stale).Status(t.Context()); err != nil {
		t.Fatalf("the stale socket was not replaced: %v", err)
	}
}

func TestPath(t *testing.T) {
	t.Setenv(control.PathEnv, "")
	if got := control.Path(""); got != control.DefaultPath {
		t.Errorf("no flag, no variable: %q", got)
	}
	t.Setenv(control.PathEnv, "/tmp/env.sock")
	for flag, want := range map[string]string{"": "/tmp/env.sock", "/tmp/flag.sock": "/tmp/flag.sock"} {
		if got := control.Path(flag); got != want {
			t.Errorf("Path(%q) = %q, want %q", flag, got, want)
		}
	}
}
