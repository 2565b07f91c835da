package health_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/reactive-ccm/ccm/resources"
	"github.com/reactive-ccm/ccm/resources/resourcetest"
	"github.com/reactive-ccm/ccm/watchers/systemd/systemdtest"
)

// listen opens a TCP listener on loopback for the test and returns its port.
func listen(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l.Addr().(*net.TCPAddr).Port
}

// closedPort returns a loopback port nothing listens on.
func closedPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return port
}

func runGoss(t *testing.T, rules string) resources.HealthResult {
	t.Helper()
	checks := mustParse(t, "- {name: rules, goss_rules: "+rules+"}")
	return run(t, checks[0])
}

func TestGossRules(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "app.conf")
	resourcetest.WriteFile(t, conf, "port = 80\n", 0o640)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintln(w, "Welcome to Acme Inc")
	}))
	t.Cleanup(srv.Close)
	open, closed := listen(t), closedPort(t)
	tests := []struct {
		name, rules string
		want        resources.HealthStatus
		wantOut     string
	}{
		{"a listening port", fmt.Sprintf("{port: {'tcp:%d': {listening: true}}}", open), resources.HealthOK, "Count: 1, Failed: 0"},
		{"a closed port", fmt.Sprintf("{port: {'tcp:%d': {listening: true}}}", closed), resources.HealthCritical, fmt.Sprintf("tcp:%d: listening:", closed)},
		{"a file's mode and content", fmt.Sprintf("{file: {%s: {exists: true, mode: '0640', contents: ['port = 80']}}}", conf), resources.HealthOK, "Failed: 0"},
		{"a file that is not there", "{file: {" + dir + "/missing: {exists: true}}}", resources.HealthCritical, "exists:"},
		{"an HTTP page", "{http: {" + srv.URL + ": {status: 200, body: [Acme Inc]}}}", resources.HealthOK, "Failed: 0"},
		{"an HTTP page without the text", "{http: {" + srv.URL + ": {status: 200, body: [Globex]}}}", resources.HealthCritical, "Globex"},
		{"a command's exit status", "{command: {'test -s " + conf + "': {exit-status: 0}}}", resources.HealthOK, "Failed: 0"},
		{"a running process", "{process: {sleep-that-never-runs: {running: true}}}", resources.HealthCritical, "running:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runGoss(t, tt.rules)
			if res.Status != tt.want || !strings.Contains(res.Output, tt.wantOut) || res.Name != "rules" {
				t.Errorf("result %+v, want %s with output containing %q", res, tt.want, tt.wantOut)
			}
		})
	}
}

// TestGossServiceInPrivateSystemd checks a unit of the private systemd
// with goss's service rule. Goss asks systemctl, which refuses to run on a
// host not booted with systemd: a systemctl first in PATH runs the real
// one inside the namespace.
func TestGossServiceInPrivateSystemd(t *testing.T) {
	sd := systemdtest.Require(t)
	const unit = "ccm-health-goss.service"
	if err := sd.WriteUnit(unit, "[Service]\nExecStart=/bin/sleep infinity\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := sd.Systemctl(t.Context(), "daemon-reload"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(t.Context()), 10*time.Second)
		defer cancel()
		sd.Systemctl(ctx, "stop", unit)
	})
	// The namespace sees this PATH too: from here the harness names the
	// real systemctl by its path.
	shims := t.TempDir()
	script(t, shims, "systemctl", "exec nsenter -t "+strconv.Itoa(sd.PID)+` -m -p /bin/systemctl "$@"`)
	t.Setenv("PATH", shims+":"+os.Getenv("PATH"))
	rules := "{service: {ccm-health-goss: {running: true}}}"
	if res := runGoss(t, rules); res.Status != resources.HealthCritical {
		t.Fatalf("stopped unit: %+v, want CRITICAL", res)
	}
	if _, err := sd.Run(t.Context(), "/bin/systemctl", "start", unit); err != nil {
		t.Fatal(err)
	}
	if res := runGoss(t, rules); res.Status != resources.HealthOK {
		t.Fatalf("running unit: %+v, want OK", res)
	}
}
