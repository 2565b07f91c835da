package health_test

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/engine"
	"github.com/reactive-ccm/ccm/engine/daemon/state"
	"github.com/reactive-ccm/ccm/engine/enginetest"
	_ "github.com/reactive-ccm/ccm/resources/all"
	"github.com/reactive-ccm/ccm/watchers/systemd"
	"github.com/reactive-ccm/ccm/watchers/systemd/systemdtest"
)

// serveEnv, set in a unit's environment, makes this test binary the
// service the stories manage: an HTTP server on loopback whose port its
// configuration file names.
const serveEnv = "CCM_HEALTH_TEST_SERVE"

// serve runs the story's service: it reads "port = N" from conf and
// answers 200 on 127.0.0.1:N, or 500 while conf+".sick" exists, which a
// start removes. A configuration it cannot read stops it with exit 1.
func serve(conf string) int {
	b, err := os.ReadFile(conf)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	port, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(string(b), "port =")))
	if err != nil {
		fmt.Fprintf(os.Stderr, "bad configuration %q\n", b)
		return 1
	}
	sick := conf + ".sick"
	os.Remove(sick)
	err = http.ListenAndServe(net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if _, err := os.Stat(sick); err == nil {
			http.Error(w, "sick", http.StatusInternalServerError)
			return
		}
		fmt.Fprintln(w, "ok")
	}))
	fmt.Fprintln(os.Stderr, err)
	return 1
}

// story is a service in the private systemd, its configuration file, and
// a manifest managing both with a health check of the service.
type story struct {
	sd   *systemdtest.Systemd
	unit string
	conf string
	port int
	dir  string
}

func newStory(t testing.TB, unit string) *story {
	t.Helper()
	sd := systemdtest.Require(t)
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	s := &story{sd: sd, unit: unit, dir: t.TempDir(), port: freePort(t)}
	s.conf = filepath.Join(s.dir, "app.conf")
	sd.Install(t, unit+".service", fmt.Sprintf("[Service]\nExecStart=%s\nEnvironment=%s=%s\n", bin, serveEnv, s.conf))
	return s
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// manifest manages the configuration (holding conf) and the service
// subscribed to it, checked by a Goss rule on its page.
func (s *story) manifest(conf string) string {
	return fmt.Sprintf(`
- file:
    - %s:
        ensure: present
        content: "%s\n"
        owner: root
        group: root
        mode: "0644"
- service:
    - %s:
        ensure: running
        subscribe: [file#%s]
        health_checks:
          - name: app_http
            goss_rules: {http: {"http://127.0.0.1:%d/": {status: 200, timeout: 1000}}}
            tries: 10
            try_sleep: 100ms
`, s.conf, conf, s.unit, s.conf, s.port)
}

// start runs the manifest in a watching engine wired as `ccm run --watch`
// wires it, with a state directory of its own.
func (s *story) start(t testing.TB, conf string, opts engine.Options) *enginetest.Run {
	t.Helper()
	st, err := state.Open(filepath.Join(s.dir, "state"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	opts.State, opts.StateKey = st, "story"
	hub := systemd.Default()
	opts.Watchers.Units, opts.Watchers.Ready = hub.Watch, hub.Ready
	path := filepath.Join(s.dir, "manifest.yaml")
	s.write(t, path, conf)
	return enginetest.StartFile(t, path, enginetest.Options{Engine: opts, Timeout: 30 * time.Second})
}

func (s *story) write(t testing.TB, path, conf string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s.manifest(conf)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// reload swaps in the manifest with conf, as a reload does.
func (s *story) reload(t testing.TB, run *enginetest.Run, conf string) {
	t.Helper()
	path := filepath.Join(s.dir, "manifest.yaml")
	s.write(t, path, conf)
	run.Reload(t, path)
}

func (s *story) healthy(t testing.TB) bool {
	t.Helper()
	resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/", s.port))
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

func (s *story) serviceID() string { return "service#" + s.unit }
func (s *story) fileID() string    { return "file#" + s.conf }

// TestRollbackStory: a configuration change that breaks the service is
// rolled back, the service is healthy again, and the bad change is not
// retried; a new desired state is applied; a drift of the held file goes
// back to the last good content, not to the bad one.
func TestRollbackStory(t *testing.T) {
	s := newStory(t, "ccm-health-rollback")
	good := fmt.Sprintf("port = %d", s.port)
	run := s.start(t, good, engine.Options{Rollback: true})
	isService := func(ev *engine.Event) bool { return ev.ID() == s.serviceID() }
	first := run.Next(t, "the service started and checked", isService)
	if first.Failed || len(first.HealthChecks) != 1 || !s.healthy(t) {
		t.Fatalf("first run: %+v", first)
	}
	run.Settle(t)

	s.reload(t, run, "port = bad")
	broken := run.Next(t, "the service broken by the change", isService)
	if !broken.Failed || broken.HealthChecks[0].Status != 2 {
		t.Fatalf("after the bad change: %+v, want its check CRITICAL", broken)
	}
	back := run.Next(t, "the change rolled back", func(ev *engine.Event) bool { return ev.ID() == s.fileID() })
	if !back.RolledBack || !strings.Contains(strings.Join(back.Error, ""), "app_http CRITICAL") {
		t.Fatalf("file event %+v, want rolled back naming the check", back)
	}
	again := run.Next(t, "the service restarted on the old configuration", isService)
	if again.Failed || !again.Refreshed {
		t.Fatalf("service event %+v, want refreshed and healthy", again)
	}
	run.Settle(t)
	if got, _ := os.ReadFile(s.conf); string(got) != good+"\n" || !s.healthy(t) {
		t.Fatalf("configuration %q, healthy %v", got, s.healthy(t))
	}
	if st := run.Engine().State(); st.RolledBack != 1 || st.Failed+st.Unhealthy != 0 {
		t.Fatalf("state %+v, want the file rolled back and the service converged", st)
	}

	// The bad change is not retried: a re-check finds the file at its
	// last good state and changes nothing.
	run.Engine().Recheck()
	if err := run.Engine().WaitIdle(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(s.conf); string(got) != good+"\n" {
		t.Fatalf("after a re-check the configuration is %q", got)
	}

	// A new desired state ends the hold.
	moved := freePort(t)
	s.port = moved
	next := fmt.Sprintf("port = %d", moved)
	s.reload(t, run, next)
	run.Next(t, "the service restarted on the new port", func(ev *engine.Event) bool {
		return isService(ev) && ev.Refreshed && !ev.Failed
	})
	if got, _ := os.ReadFile(s.conf); string(got) != next+"\n" || !s.healthy(t) {
		t.Fatalf("configuration %q, healthy %v", got, s.healthy(t))
	}
}

// TestRemediationStory: a running service whose health check turns
// CRITICAL is restarted, and healthy again.
func TestRemediationStory(t *testing.T) {
	s := newStory(t, "ccm-health-remediate")
	run := s.start(t, fmt.Sprintf("port = %d", s.port), engine.Options{HealthInterval: 200 * time.Millisecond})
	isService := func(ev *engine.Event) bool { return ev.ID() == s.serviceID() }
	run.Next(t, "the service started", func(ev *engine.Event) bool { return isService(ev) && !ev.Failed })
	if err := os.WriteFile(s.conf+".sick", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	sick := run.Next(t, "the check failing", func(ev *engine.Event) bool { return isService(ev) && ev.Failed })
	if sick.HealthChecks[0].Status != 2 {
		t.Fatalf("event %+v, want the check failing CRITICAL", sick)
	}
	well := run.Next(t, "the service restarted", isService)
	if well.Failed || !well.Refreshed || well.HealthChecks[0].Status != 0 || !s.healthy(t) {
		t.Fatalf("event %+v, want a restart that left it healthy", well)
	}
}
