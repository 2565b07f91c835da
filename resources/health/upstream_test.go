package health_test

import (
	"context"
	"errors"
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
	"github.com/reactive-ccm/ccm/graph"
	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/watchers/systemd"
	"github.com/reactive-ccm/ccm/watchers/systemd/systemdtest"
)

// acmeEnv, set in a unit's environment, makes this test binary the httpd
// of upstream's monitoring docs: Acme Inc's page on 127.0.0.1:80.
const acmeEnv = "CCM_HEALTH_TEST_ACME"

// debianCheckHTTP is where Debian's monitoring-plugins-basic installs the
// check_http upstream's docs call /usr/lib64/nagios/plugins/check_http.
const debianCheckHTTP = "/usr/lib/nagios/plugins/check_http"

// serveAcme answers every request with Acme Inc's page. The status line
// names Acme Inc too: upstream's check_http --expect "Acme Inc" looks for
// it there, not in the body.
func serveAcme() int {
	err := http.ListenAndServe("127.0.0.1:80", http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		defer conn.Close()
		const page = "Welcome to Acme Inc\n"
		fmt.Fprintf(buf, "HTTP/1.1 200 Acme Inc\r\nContent-Type: text/plain\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(page), page)
		buf.Flush()
	}))
	fmt.Fprintln(os.Stderr, err)
	return 1
}

// TestUpstreamMonitoringManifestsRun runs upstream's monitoring doc
// manifests against an httpd in the private systemd: the service is
// started and enabled, and its Nagios check (the real check_http) and its
// Goss rules (service, port and page) pass. The only edit is the plugin's
// path, which is Debian's.
func TestUpstreamMonitoringManifestsRun(t *testing.T) {
	sd := systemdtest.Require(t)
	corpus := filepath.Join("..", "..", "..", "shared", "upstream-corpus", "manifests")
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("the upstream corpus is not beside the checkout: %v", err)
	}
	if _, err := os.Stat(debianCheckHTTP); err != nil {
		t.Skipf("check_http is missing (.ci/test-deps.sh installs monitoring-plugins-basic): %v", err)
	}
	if l, err := net.Listen("tcp", "127.0.0.1:80"); err != nil {
		t.Skipf("the manifests check port 80, which is in use on loopback: %v", err)
	} else {
		l.Close()
	}
	httpd(t, sd)
	systemctlShim(t, sd)
	for _, c := range []string{"doc-monitoring-L42", "doc-monitoring-L77"} {
		t.Run(c, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(corpus, c, "manifest.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "manifest.yaml")
			src := strings.ReplaceAll(string(b), "/usr/lib64/nagios/plugins/check_http", debianCheckHTTP)
			if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			ev := runOnce(t, path, "service#httpd")
			if ev.Failed || len(ev.HealthChecks) != 1 || ev.HealthChecks[0].Status != resources.HealthOK {
				t.Fatalf("service#httpd: %+v, health checks %+v; want converged and OK", ev, ev.HealthChecks)
			}
		})
	}
}

// httpd installs the docs' httpd in the private systemd, stopped and
// disabled again when the test ends.
func httpd(t *testing.T, sd *systemdtest.Systemd) {
	t.Helper()
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	unit := fmt.Sprintf("[Service]\nExecStart=%s\nEnvironment=%s=1\n\n[Install]\nWantedBy=multi-user.target\n", bin, acmeEnv)
	sd.Install(t, "httpd.service", unit)
}

// systemctlShim puts first in PATH a systemctl that runs the real one
// inside the private systemd's namespace, for goss's service rule:
// systemctl refuses to run on a host not booted with systemd.
func systemctlShim(t *testing.T, sd *systemdtest.Systemd) {
	t.Helper()
	shims := t.TempDir()
	script(t, shims, "systemctl", "exec nsenter -t "+strconv.Itoa(sd.PID)+` -m -p /bin/systemctl "$@"`)
	t.Setenv("PATH", shims+":"+os.Getenv("PATH"))
}

// runOnce converges the manifest at path once, as `ccm run` does, and
// returns the event of the resource id.
func runOnce(t *testing.T, path, id string) *engine.Event {
	t.Helper()
	g, err := graph.Load([]string{path}, graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	hub := systemd.Default()
	var found *engine.Event
	opts := engine.Options{Events: func(ev *engine.Event) {
		if ev.ID() == id {
			found = ev
		}
	}}
	opts.Watchers.Units, opts.Watchers.Ready = hub.Watch, hub.Ready
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	if _, err := engine.New(g, opts).Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	if found == nil {
		t.Fatalf("no event for %s", id)
	}
	return found
}
